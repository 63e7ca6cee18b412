package dev.saccade.atspi;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The independent witnesses (xwininfo, xdotool, kill) run against a test desktop. */
final class DesktopTools {
    private static final long COMMAND_TIMEOUT_MS = 15_000;

    private final TestDesktop desktop;

    DesktopTools(final TestDesktop desktop) {
        this.desktop = desktop;
    }

    AppHandle app(final DemoApp which) {
        for (final AppHandle app : desktop.apps()) {
            if (app.app() == which) {
                return app;
            }
        }
        throw new AssertionError("no " + which + " on " + desktop);
    }

    /** Runs a command on the desktop and returns its standard output; fails on a non-zero exit. */
    String run(final String... command) {
        try {
            final Process p = desktop.configure(new ProcessBuilder(command)).redirectErrorStream(true).start();
            final byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(COMMAND_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish");
            }
            final String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " exited " + p.exitValue() + ": " + text);
            }
            return text;
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** {x, y, width, height}: xwininfo's "Absolute upper-left X/Y", "Width", "Height". */
    int[] absoluteBounds(final long xid) {
        final String text = run("xwininfo", "-id", Long.toString(xid));
        return new int[] {
            field(text, "Absolute upper-left X"), field(text, "Absolute upper-left Y"), field(text, "Width"),
            field(text, "Height")};
    }

    private static int field(final String text, final String label) {
        final Matcher m = Pattern.compile(Pattern.quote(label) + ":\\s+(-?\\d+)").matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no '" + label + "' in xwininfo output:\n" + text);
        }
        return Integer.parseInt(m.group(1));
    }

    /** SIGSTOP or SIGCONT to a process. */
    void signal(final long pid, final String signal) {
        run("kill", "-" + signal, Long.toString(pid));
    }
}
