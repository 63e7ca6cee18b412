package dev.saccade.bench;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.pixel.PixelElement;
import dev.saccade.pixel.PixelWindow;
import dev.saccade.pixel.WindowReader;
import dev.saccade.x11.X11DesktopReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The pixel reading of a terminal, phase (4) of {@link PixelBench}: xterm (80×24, its default
 * bitmap font) showing 20 known lines of a shell's output, read whole through {@link WindowReader}
 * (wall and CPU time per reading, and how many of the 20 lines read exactly), then read as the
 * pixel source reads it (reusing) after each new command the shell echoes.
 */
final class PixelTerminalBench {
    static final int LINES = 20;
    private static final String TITLE = "Saccade bench terminal";
    private static final String LINE = "output line %d of the terminal";

    private PixelTerminalBench() {
    }

    static List<String> run(final TestDesktop desktop, final WindowReader reader, final int rounds, final int reads)
        throws Exception {
        final String script = "i=1; while [ $i -le " + LINES + " ]; do printf '" + LINE + "\\n' $i; i=$((i+1)); done;"
            + " exec sh";
        final Process xterm = desktop.configure(new ProcessBuilder("xterm", "-title", TITLE, "-geometry", "80x24+0+700",
            "-e", "sh", "-c", script)).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            final long xid = desktop.awaitWindow(xterm.pid(), TITLE, 30_000);
            final WindowInfo w = window(desktop, xid);
            PixelBench.awaitRedrawn(reader, w, 0);
            final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            final ClickBench.Series read = new ClickBench.Series("pixel_read_xterm", "pixel reading xterm " + w.width() + "x"
                + w.height(), rounds);
            final org.HdrHistogram.Histogram readCpu = new org.HdrHistogram.Histogram(3);
            final PixelWindow[] last = new PixelWindow[1];
            reader.read(w, 60_000, 64);
            for (int r = 0; r < rounds; r++) {
                read.round(r, reads, () -> {
                    final long c0 = cpu.getCurrentThreadCpuTime();
                    last[0] = reader.read(w, 60_000, 64);
                    readCpu.recordValue(cpu.getCurrentThreadCpuTime() - c0);
                });
            }
            int exact = 0;
            for (int i = 1; i <= LINES; i++) {
                exact += texts(last[0]).contains(String.format(Locale.ROOT, LINE, i)) ? 1 : 0;
            }
            System.out.println("xterm texts: " + texts(last[0]));
            // as the pixel source reads it: after each command the shell echoes (the screen scrolls)
            PixelBench.run(desktop, "xdotool", "windowactivate", "--sync", Long.toString(xid));
            reader.readReusing(w, 60_000, 64);
            final org.HdrHistogram.Histogram reuseCpu = new org.HdrHistogram.Histogram(3);
            final org.HdrHistogram.Histogram reuseWall = new org.HdrHistogram.Histogram(3);
            for (int k = 0; k < rounds * 2; k++) {
                final long hash = reader.capturedHash(w);
                PixelBench.run(desktop, "xdotool", "type", "--delay", "0", "echo command " + k + "\n");
                PixelBench.awaitRedrawn(reader, w, hash);
                final long c0 = cpu.getCurrentThreadCpuTime();
                final long t0 = System.nanoTime();
                reader.readReusing(w, 60_000, 64);
                reuseWall.recordValue(System.nanoTime() - t0);
                reuseCpu.recordValue(cpu.getCurrentThreadCpuTime() - c0);
            }
            read.print();
            final List<String> out = new ArrayList<>();
            out.add(read.machineLine() + " elements=" + last[0].elements().size());
            out.add(String.format(Locale.ROOT, "BENCH figure=pixel_read_xterm_cpu count=%d p50_ns=%d p99_ns=%d"
                + " lines_exact=%d of=%d", readCpu.getTotalCount(), readCpu.getValueAtPercentile(50),
                readCpu.getValueAtPercentile(99), exact, LINES));
            out.add(String.format(Locale.ROOT, "BENCH figure=pixel_reread_after_command_xterm count=%d p50_ns=%d"
                + " p99_ns=%d cpu_p50_ns=%d cpu_p99_ns=%d", reuseWall.getTotalCount(), reuseWall.getValueAtPercentile(50),
                reuseWall.getValueAtPercentile(99), reuseCpu.getValueAtPercentile(50), reuseCpu.getValueAtPercentile(99)));
            return out;
        } finally {
            xterm.destroyForcibly();
            xterm.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static List<String> texts(final PixelWindow w) {
        final List<String> texts = new ArrayList<>();
        for (final PixelElement e : w.elements()) {
            texts.add(e.text());
        }
        return texts;
    }

    private static WindowInfo window(final TestDesktop desktop, final long xid) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            final DesktopSnapshot s = X11DesktopReader.readOnce(desktop.display());
            final WindowInfo w = s.window(xid);
            if (w != null && w.viewable() && w.width() > 0) {
                return w;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("xterm's window " + xid + " never mapped");
            }
            LockSupport.parkNanos(20_000_000L);
        }
    }
}
