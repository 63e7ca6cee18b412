package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.pixel.PixelSource;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A terminal driven and read as an agent would: xterm publishes no accessible object, so its
 * active window takes the typed command (TEXT, then KEY Return: D52) and the pixel source reads
 * what the shell printed. The shell computes the marker line it prints (so its text is not on
 * the command line) and writes it to a file as well, the application's word for what it printed;
 * that line is found as a PIXEL text target of the terminal's window. xterm's default bitmap font
 * reads only through the second look at small text. The shell draws its output once and nothing
 * more: a reading the deadline cut on a loaded machine is read again with more time, so the line
 * is read however slow the machine.
 */
@WithTestDesktop(apps = {})
@ExtendWith(DesktopOwnerExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TerminalPixelTextDesktopTest {
    private static final String TITLE = "Saccade terminal";
    private static final int RETURN_USAGE = 0x28;
    private static final Duration APPEAR = Duration.ofSeconds(40);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final String OUTPUT = "printed.txt";
    private static final Duration IDLE = Duration.ofSeconds(5);
    /** A reading of the terminal is ~400 ms of CPU: one would exceed it. */
    private static final Duration IDLE_PIXEL_CPU = Duration.ofMillis(100);

    private TestDesktop desktop;
    private AgentClient client;
    private Process terminal;

    @BeforeAll
    void take(final TestDesktop testDesktop, final AgentClient agent) {
        desktop = testDesktop;
        client = agent;
    }

    @AfterAll
    void stop() {
        if (terminal != null) {
            terminal.destroyForcibly();
        }
    }

    @Test
    void whatTheShellPrintsIsReadFromTheTerminalsPixels() throws Exception {
        final Path dir = Files.createTempDirectory(desktop.directory(), "terminal");
        terminal = desktop.configure(new ProcessBuilder("xterm", "-title", TITLE, "-geometry", "80x12+0+0", "-e", "sh"))
            .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("xterm.log").toFile()).start();
        final long window = desktop.awaitWindow(terminal.pid(), TITLE, APPEAR.toMillis());

        // the window target takes text once it is the active window: activate it if it is not
        final long windowTarget = TargetIds.window(window);
        Await.probe(() -> {
            final int caps = capabilities(windowTarget);
            if ((caps & TargetCapability.TEXT) == 0) {
                InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.WINDOW_ACTIVATE).targetId(windowTarget), 0);
            }
            return caps;
        }, caps -> (caps & (TargetCapability.TEXT | TargetCapability.KEYBOARD))
            == (TargetCapability.TEXT | TargetCapability.KEYBOARD), APPEAR, POLL,
            caps -> "the terminal's window target to take TEXT and KEYBOARD; capabilities " + caps);

        // the shell computes the number: the output line's text is not on the command line
        final int n = ThreadLocalRandom.current().nextInt(1000, 9_000);
        final String marker = "saccade-" + (n + 1) + "-ish marker";
        final String command = "echo saccade-$((" + n + "+1))-ish marker | tee " + OUTPUT;
        ok(InputHelperDesktopTest.send(client, command.getBytes(StandardCharsets.UTF_8),
            a -> a.kind(ActionKind.TEXT).targetId(windowTarget).buttonBits(Button.LEFT), 0), "TEXT the command");
        ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.KEY).keyUsage(RETURN_USAGE), 0), "KEY Return (to the focus: KEY names no target)");
        final long returnNs = System.nanoTime();
        // what the shell printed, from the shell: tee wrote the line it printed
        final Path printed = dir.resolve(OUTPUT);
        Await.probe(() -> Files.exists(printed) ? Files.readString(printed) : "", (marker + "\n")::equals, APPEAR, POLL,
            text -> "the shell to print \"" + marker + "\"; it printed \"" + text + "\"");

        // the shell's output line, on its own, in the terminal's pixels
        final String[] seen = {""};
        final TargetFlyweight line = Await.probe(() -> {
            final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, 0, marker, TextMatch.EXACT);
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = target(c, i);
                if (t.windowId() == window && t.sourceBits() == SourceBit.PIXEL) {
                    return t;
                }
            }
            seen[0] = texts(window);
            return null;
        }, t -> t != null, APPEAR, POLL, none -> "a PIXEL text target \"" + marker + "\" in the terminal; its texts " + seen[0]);
        System.out.println("the output line read as a PIXEL text target " + (System.nanoTime() - returnNs) / 1_000_000L
            + " ms after Return");
        assertEquals(TargetIds.window(window), line.parentId());
        assertTrue((line.flags() & TargetFlag.ACTIONABLE) != 0);

        // read, the terminal costs nothing while it shows nothing new: no reading again (D55)
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long pixel0 = pixelThreadCpuNs(threads);
        final long process0 = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
        LockSupport.parkNanos(IDLE.toNanos()); // a measuring window, not a wait for an event
        final long pixelNs = pixelThreadCpuNs(threads) - pixel0;
        final long processNs = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime() - process0;
        System.out.println("idle with the terminal read: pixel thread " + pixelNs / 1_000_000L + " ms CPU, owner and test "
            + processNs / 1_000_000L + " ms CPU in " + IDLE.toMillis() + " ms");
        assertTrue(pixelNs <= IDLE_PIXEL_CPU.toNanos(), "the pixel thread idles: " + pixelNs / 1_000_000L + " ms CPU in "
            + IDLE.toMillis() + " ms");
    }

    /** CPU time of the owner's pixel thread (in this JVM). */
    private static long pixelThreadCpuNs(final ThreadMXBean threads) {
        long ns = 0;
        for (final Thread t : Thread.getAllStackTraces().keySet()) {
            if (PixelSource.THREAD_NAME.equals(t.getName())) {
                ns += Math.max(0, threads.getThreadCpuTime(t.getId()));
            }
        }
        return ns;
    }

    private static void ok(final ActionCompletionFlyweight c, final String what) {
        assertEquals(ResultCode.OK, c.result(), what + ": " + ResultCode.name(c.result()));
    }

    private int capabilities(final long targetId) throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, 0, null, TextMatch.EXACT);
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = target(c, i);
            if (t.targetId() == targetId) {
                return t.capabilityBits();
            }
        }
        return 0;
    }

    /** The texts of the window's PIXEL targets, for a failure's message. */
    private String texts(final long window) throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, 0, null, TextMatch.EXACT);
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = target(c, i);
            if (t.windowId() == window && t.sourceBits() == SourceBit.PIXEL) {
                final byte[] b = new byte[(int) t.textSize()];
                c.bytes().read(c.offset() + t.textOffset(), b, 0, b.length);
                out.append('"').append(new String(b, StandardCharsets.UTF_8)).append("\" ");
            }
        }
        return out.toString();
    }

    private static TargetFlyweight target(final CompletionFlyweight c, final int i) {
        return new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset() + (long) i * c.targetStride());
    }
}
