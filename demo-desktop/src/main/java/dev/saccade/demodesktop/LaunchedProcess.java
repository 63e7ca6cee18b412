package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One long-running process the desktop started (Xvfb, dbus-daemon, openbox, an app), with its
 * output in {@code logs/}: stderr always, stdout too unless the caller reads it through a pipe
 * (dbus-daemon's {@code --print-address}). Files rather than pipes: nobody has to drain them,
 * and a failure message can quote them.
 */
final class LaunchedProcess {
    /** How much of a log a failure message quotes. */
    static final int LOG_TAIL_BYTES = 2_000;

    private final String name;
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private LaunchedProcess(final String name, final Process process, final Path stdout, final Path stderr) {
        this.name = name;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /**
     * @param logName     unique among this desktop's processes: names the log files.
     * @param stdoutPipe  true to read stdout through {@link Process#getInputStream()}.
     */
    static LaunchedProcess start(
        final String logName,
        final List<String> command,
        final DesktopEnvironment environment,
        final Map<String, String> extraEnvironment,
        final Path logDirectory,
        final boolean stdoutPipe) {
        final Path stdoutFile = logDirectory.resolve(logName + ".out");
        final Path stderrFile = logDirectory.resolve(logName + ".log");
        final ProcessBuilder builder = environment.applyTo(new ProcessBuilder(command));
        builder.environment().putAll(extraEnvironment);
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.redirectError(stderrFile.toFile());
        if (!stdoutPipe) {
            builder.redirectOutput(stdoutFile.toFile());
        }
        try {
            return new LaunchedProcess(logName, builder.start(), stdoutPipe ? null : stdoutFile, stderrFile);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot start " + String.join(" ", command), e);
        }
    }

    String name() {
        return name;
    }

    Process process() {
        return process;
    }

    long pid() {
        return process.pid();
    }

    /** The file holding stdout, or null when stdout is a pipe. */
    Path stdoutFile() {
        return stdout;
    }

    /** The last {@link #LOG_TAIL_BYTES} of stderr, for failure messages. */
    String stderrTail() {
        try {
            final byte[] bytes = Files.readAllBytes(stderr);
            final int from = Math.max(0, bytes.length - LOG_TAIL_BYTES);
            return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8).strip();
        } catch (final IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** "openbox (pid 12) exited with 1; stderr: ..." or "... is running; stderr: ...". */
    String describe() {
        final String status = process.isAlive() ? "is running" : "exited with " + process.exitValue();
        return name + " (pid " + process.pid() + ") " + status + "; stderr: " + stderrTail();
    }
}
