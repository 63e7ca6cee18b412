package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code saccade up} process of a launcher (the built distribution's, or an installed
 * one) with its own runtime directory and no DISPLAY: its output lines, the wait for "Saccade is
 * up.", a CLI command run beside it, and the SIGTERM that must stop everything it started.
 */
final class UpProcess implements AutoCloseable {
    private static final java.util.regex.Pattern LOGS = java.util.regex.Pattern.compile("; logs (\\S+)");
    final Process process;
    private final Path launcher;
    private final Path runtime;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final Thread pump;

    private UpProcess(final Path launcher, final Path runtime, final Process process) {
        this.launcher = launcher;
        this.runtime = runtime;
        this.process = process;
        this.pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (final IOException ignore) {
                // the process ended; what it printed is in the queue
            }
        });
        pump.start();
    }

    /** Starts {@code launcher up args...} with XDG_RUNTIME_DIR {@code runtime} (0700) and no DISPLAY. */
    static UpProcess start(final Path launcher, final Path runtime, final String... args) throws IOException {
        return start(launcher, runtime, java.util.Map.of(), args);
    }

    /** {@link #start(Path, Path, String...)} with {@code environment} added (e.g. a Wayland session's variables). */
    static UpProcess start(final Path launcher, final Path runtime, final java.util.Map<String, String> environment,
        final String... args) throws IOException {
        final List<String> command = new ArrayList<>(List.of(launcher.toString(), "up"));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("DISPLAY");
        builder.environment().putAll(environment);
        builder.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        return new UpProcess(launcher, runtime, builder.start());
    }

    /** Waits for "Saccade is up."; returns every line printed so far. */
    List<String> awaitUp(final long timeoutSeconds) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (seen.stream().noneMatch(l -> l.startsWith("Saccade is up."))) {
            final String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertTrue(line != null, "no 'Saccade is up.' within " + timeoutSeconds + " s; printed: " + seen);
            seen.add(line);
        }
        return seen;
    }

    /** Every line printed so far, once the process has ended or up to now. */
    List<String> printed() throws InterruptedException {
        if (!process.isAlive()) {
            pump.join(5_000);
        }
        lines.drainTo(seen);
        return List.copyOf(seen);
    }

    /** A CLI run: its exit code and its output (stdout and stderr). */
    record Ran(int code, String out) {
    }

    /** Runs {@code launcher args...} against this service (same runtime directory). */
    Ran cli(final String... args) throws Exception {
        final List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("DISPLAY");
        builder.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        final Process p = builder.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", args) + " did not finish");
        return new Ran(p.exitValue(), out);
    }

    /** SIGTERM; asserts that up and every process it had started are gone. */
    void stopAndCheckNothingLeft() throws InterruptedException {
        final List<ProcessHandle> started = process.descendants().toList();
        process.destroy();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "up stops on SIGTERM");
        for (final ProcessHandle p : started) {
            assertTrue(p.onExit().toCompletableFuture().completeOnTimeout(null, 10, TimeUnit.SECONDS).join() != null
                || !p.isAlive(), "left running: " + p.pid() + " " + p.info().command().orElse("?"));
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        try {
            pump.join(5_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's to see: close() does not throw it
        }
    }

    /** The demo session's log directory, from the "; logs DIR" part of {@code up}'s lines; null if none. */
    static Path logDirectory(final List<String> lines) {
        Path logs = null;
        for (final String line : lines) {
            final java.util.regex.Matcher m = LOGS.matcher(line);
            if (m.find()) {
                logs = Path.of(m.group(1));
            }
        }
        return logs;
    }

    /** The first file in {@code logs} matching {@code glob} (an app's stdout, {@code <name>-<n>.out}). */
    static Path logFile(final Path logs, final String glob) throws IOException {
        try (java.nio.file.DirectoryStream<Path> files = java.nio.file.Files.newDirectoryStream(logs, glob)) {
            for (final Path f : files) {
                return f;
            }
        }
        throw new AssertionError("no " + glob + " in " + logs);
    }

    /** What the file holds so far, or the error in parentheses (for a condition polled while it is written). */
    static String read(final Path file) {
        try {
            return java.nio.file.Files.readString(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            return "(" + e + ")";
        }
    }
}
