package dev.saccade.demodesktop;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one short-lived X or D-Bus command-line tool ({@code xprop}, {@code xdpyinfo},
 * {@code dbus-send}) against the desktop and returns what it printed.
 *
 * <p>Why tools and not Xlib through JNA: Xlib's default I/O error handler calls {@code exit()},
 * so a JVM holding a connection to an Xvfb that dies (or that close() stops) would be killed with
 * it. A tool costs 2 to 5 ms per call, which is nothing next to an app's start.
 *
 * <p>Output is read after the tool exits, so it must fit the pipe buffer (64 KiB); the queries we
 * make print a few hundred bytes. A tool that fills the pipe blocks, runs into the timeout and is
 * reported, it does not hang the caller. {@code xdpyinfo} prints about 100 KB: use
 * {@link #succeeds(DesktopEnvironment, List)}, which discards the output.
 */
final class ToolCommand {
    /** Generous: a tool answers in milliseconds, unless the server behind it hangs. */
    static final long TIMEOUT_MS = 10_000;

    /** What a tool printed and how it exited. */
    record Result(int exitCode, String stdout, String stderr) {
        boolean succeeded() {
            return exitCode == 0;
        }
    }

    private ToolCommand() {
    }

    static Result run(final DesktopEnvironment environment, final List<String> command) {
        return run(environment, command, false);
    }

    /** Runs a tool for its exit code only; its output is discarded, however long. */
    static boolean succeeds(final DesktopEnvironment environment, final List<String> command) {
        return run(environment, command, true).succeeded();
    }

    private static Result run(
        final DesktopEnvironment environment,
        final List<String> command,
        final boolean discardOutput) {
        final ProcessBuilder builder = environment.applyTo(new ProcessBuilder(command));
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        if (discardOutput) {
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        }
        final Process process;
        try {
            process = builder.start();
        } catch (final IOException e) {
            throw new TestDesktopException("cannot run " + String.join(" ", command), e);
        }
        try {
            if (!process.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new TestDesktopException(
                    "no answer within " + TIMEOUT_MS + " ms from: " + String.join(" ", command));
            }
            return new Result(process.exitValue(), read(process.getInputStream()), read(process.getErrorStream()));
        } catch (final InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new TestDesktopException("interrupted while running " + String.join(" ", command), e);
        }
    }

    private static String read(final InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot read the output of a tool", e);
        }
    }
}
