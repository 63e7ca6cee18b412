package dev.saccade.x11;

import dev.saccade.demodesktop.TestDesktop;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The independent witnesses: xprop, xwininfo, xdotool and xrandr run against a test desktop,
 * their output parsed; and extra client processes the tests start and kill themselves.
 */
final class XTools {
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(3);
    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]+");

    private final TestDesktop desktop;
    private final AtomicInteger launches = new AtomicInteger();

    XTools(final TestDesktop desktop) {
        this.desktop = desktop;
    }

    /**
     * Starts a client on the desktop. It carries the desktop's environment, so the desktop stops
     * it at close at the latest; tests stop it themselves with {@link #stop(Process)}.
     */
    Process launch(final String... command) throws IOException {
        final ProcessBuilder pb = desktop.configure(new ProcessBuilder(command));
        pb.redirectErrorStream(true);
        pb.redirectOutput(desktop.logDir().resolve("x11-test-" + launches.incrementAndGet() + ".log").toFile());
        return pb.start();
    }

    /** SIGTERM to a client and its children, SIGKILL after a grace period. */
    static void stop(final Process p) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    /**
     * Runs a command on the desktop and returns its standard output.
     *
     * @throws IllegalStateException if it fails or times out
     */
    String run(final String... command) {
        try {
            final Path out = Files.createTempFile(desktop.directory(), "cmd", ".out");
            final ProcessBuilder pb = desktop.configure(new ProcessBuilder(command));
            pb.redirectOutput(out.toFile());
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            final Process p = pb.start();
            if (!p.waitFor(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", command));
            }
            final String text = Files.readString(out);
            Files.delete(out);
            if (p.exitValue() != 0) {
                throw new IllegalStateException("exit " + p.exitValue() + ": " + String.join(" ", command));
            }
            return text;
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A WINDOW-list property of the root window, as xprop prints it. */
    List<Long> rootWindows(final String property) {
        final String text = run("xprop", "-root", "-notype", property);
        final List<Long> ids = new ArrayList<>();
        final int hash = text.indexOf('#');
        if (hash >= 0) {
            final Matcher m = HEX.matcher(text.substring(hash));
            while (m.find()) {
                ids.add(Long.decode(m.group()));
            }
        }
        return ids;
    }

    /** {@code _NET_ACTIVE_WINDOW} as xprop reports it; 0 if unset. */
    long activeWindow() {
        final List<Long> ids = rootWindows("_NET_ACTIVE_WINDOW");
        return ids.isEmpty() ? 0 : ids.get(0);
    }

    /** A string property of a window as xprop prints it, unquoted; null if not set. */
    String windowText(final long xid, final String property) {
        final String text = run("xprop", "-id", Long.toString(xid), "-notype", property);
        final int start = text.indexOf("= \"");
        final int end = text.lastIndexOf('"');
        if (start < 0 || end <= start + 2) {
            return null;
        }
        return text.substring(start + 3, end).replace("\\\"", "\"").replace("\\\\", "\\");
    }

    /** {x, y, width, height}: xwininfo's "Absolute upper-left X/Y", "Width", "Height". */
    int[] absoluteBounds(final long xid) {
        final String text = run("xwininfo", "-id", Long.toString(xid));
        return new int[] {
            field(text, "Absolute upper-left X:"), field(text, "Absolute upper-left Y:"),
            field(text, "Width:"), field(text, "Height:")};
    }

    private static int field(final String text, final String label) {
        final Matcher m = Pattern.compile(Pattern.quote(label) + "\\s*(-?\\d+)").matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no '" + label + "' in xwininfo output:\n" + text);
        }
        return Integer.parseInt(m.group(1));
    }
}
