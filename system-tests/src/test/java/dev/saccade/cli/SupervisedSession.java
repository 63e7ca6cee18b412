package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.supervisor.ControlRequest;
import dev.saccade.supervisor.SupervisorClient;
import dev.saccade.testsupport.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real {@code bin/saccade supervisor run} of the built distribution, in a private runtime
 * directory, with its stderr lines kept with their arrival times (System.nanoTime).
 */
final class SupervisedSession implements AutoCloseable {
    static final Path DIST = Path.of(System.getProperty("saccade.dist.dir"));
    private static final Pattern PID = Pattern.compile("\"pid\":\"(\\d+)\"");
    private static final Pattern GENERATION = Pattern.compile("\"generation\":\"(\\d+)\"");

    /** One stderr line and when it arrived. */
    static final class Line {
        final long atNs;
        final String text;

        Line(final long atNs, final String text) {
            this.atNs = atNs;
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    final Path runtime;
    final Process process;
    final List<Line> lines = new CopyOnWriteArrayList<>();
    private final Thread pump;

    private SupervisedSession(final Path runtime, final Process process) {
        this.runtime = runtime;
        this.process = process;
        this.pump = new Thread(this::pump, "supervisor-stderr");
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts the supervisor on {@code display} without an input helper, accessibility off (fast owners). */
    static SupervisedSession start(final String display, final String supervisorJavaOptions, final String... extra)
        throws IOException {
        final Path parent = Files.createTempDirectory("saccade-supervised",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        return start(parent.resolve(RuntimeDirectory.DIRECTORY_NAME), display, supervisorJavaOptions, extra);
    }

    /** As {@link #start}, with an input helper: {@code mode} SUPERVISED (the supervisor's) or OWNER (each owner's own). */
    static SupervisedSession startWithHelpers(final String display, final String mode) throws IOException {
        return startWithHelpers(display, mode, "");
    }

    /** As {@link #startWithHelpers(String, String)}, with the supervisor's JVM options (SACCADE_JAVA_OPTS). */
    static SupervisedSession startWithHelpers(final String display, final String mode, final String supervisorJavaOptions)
        throws IOException {
        final Path parent = Files.createTempDirectory("saccade-supervised",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path runtime = parent.resolve(RuntimeDirectory.DIRECTORY_NAME);
        final ProcessBuilder builder = new ProcessBuilder(DIST.resolve("bin/saccade").toString(), "supervisor", "run",
            "--display", display, "--runtime-dir", runtime.toString(), "--input-helper", mode,
            "--owner-java-options", "-Dsaccade.owner.accessibility=false").redirectErrorStream(true);
        builder.environment().put("SACCADE_JAVA_OPTS", supervisorJavaOptions);
        builder.environment().remove("NOTIFY_SOCKET");
        return new SupervisedSession(runtime, builder.start());
    }

    /** A new supervisor in the runtime directory a dead one left; closing either cleans it up. */
    static SupervisedSession restartIn(final SupervisedSession dead, final String display) throws IOException {
        return start(dead.runtime, display, "");
    }

    private static SupervisedSession start(final Path runtime, final String display, final String supervisorJavaOptions,
        final String... extra) throws IOException {
        final List<String> command = new ArrayList<>(List.of(DIST.resolve("bin/saccade").toString(), "supervisor", "run",
            "--display", display, "--runtime-dir", runtime.toString(), "--no-input-helper",
            "--owner-java-options", "-Dsaccade.owner.accessibility=false"));
        command.addAll(List.of(extra));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("SACCADE_JAVA_OPTS", supervisorJavaOptions);
        builder.environment().remove("NOTIFY_SOCKET");
        return new SupervisedSession(runtime, builder.start());
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(new Line(System.nanoTime(), line));
            }
        } catch (final IOException ignore) {
            // the supervisor ended; its lines are kept
        }
    }

    Path endpoint() {
        return runtime.resolve(RuntimeDirectory.AGENT_SOCKET_NAME);
    }

    /** How many stderr lines the supervisor has written so far (for {@link #awaitLine}). */
    int lineCount() {
        return lines.size();
    }

    String request(final String line) throws IOException {
        return SupervisorClient.request(runtime.resolve(RuntimeDirectory.SUPERVISOR_SOCKET_NAME), line, 120_000);
    }

    /** Waits for a stderr line matching {@code test}, counting from line {@code from}; returns its index. */
    int awaitLine(final int from, final Predicate<String> test, final long timeoutMs) {
        final int[] next = {from};
        // the matching line's index, -1 while there is none yet, -2 once the supervisor exited without it
        final int found = Await.value(() -> {
            final boolean exited = !process.isAlive();
            for (; next[0] < lines.size(); next[0]++) {
                if (test.test(lines.get(next[0]).text)) {
                    return next[0];
                }
            }
            return exited ? -2 : -1;
        }, i -> i != -1, Duration.ofMillis(timeoutMs), Duration.ofMillis(2), i -> "such a line: " + tail());
        assertTrue(found >= 0, () -> "supervisor exited: " + lines);
        return found;
    }

    /** Waits for an owner serving, by status (the first one, or one other than {@code notPid}). */
    long awaitOwner(final long notPid, final long timeoutMs) throws IOException {
        final Pattern running = Pattern.compile("\"name\":\"owner\",\"running\":true,\"pid\":\"(\\d+)\"");
        // the status's serving owner's pid, 0 while there is none (or no answer), -1 once the supervisor exited
        final long pid = Await.value(() -> {
            if (!process.isAlive()) {
                return -1L;
            }
            try {
                final Matcher owner = running.matcher(request(ControlRequest.status()));
                return owner.find() && Long.parseLong(owner.group(1)) != notPid ? Long.parseLong(owner.group(1)) : 0L;
            } catch (final IOException notYet) {
                return 0L; // not bound yet, or a dead supervisor's stale socket file until ours replaces it
            }
        }, p -> p != 0, Duration.ofMillis(timeoutMs), Duration.ofMillis(20), p -> "an owner serving: " + tail());
        assertTrue(pid > 0, "supervisor exited: " + lines);
        return pid;
    }

    static long pidOf(final String reply) {
        final Matcher m = PID.matcher(reply);
        assertTrue(m.find(), reply);
        return Long.parseLong(m.group(1));
    }

    static long generationOf(final String reply) {
        final Matcher m = GENERATION.matcher(reply);
        assertTrue(m.find(), reply);
        return Long.parseLong(m.group(1));
    }

    String tail() {
        // a snapshot first: a view of the live list throws ConcurrentModificationException once
        // the supervisor writes another line (it did, in a fresh-clone CI)
        final List<Line> copy = List.copyOf(lines);
        return copy.subList(Math.max(0, copy.size() - 30), copy.size()).toString();
    }

    String ownerLog() throws IOException {
        final Path log = runtime.resolve("saccade-owner.log");
        if (!Files.exists(log)) {
            return "";
        }
        final String all = Files.readString(log);
        return all.substring(Math.max(0, all.length() - 4_000));
    }

    /** Stops it with SIGTERM; kills what is left. */
    @Override
    public void close() throws IOException {
        try {
            stop();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's to see: close() does not throw it
        } catch (final ExecutionException | TimeoutException e) {
            throw new IOException("a child of the supervisor did not exit", e);
        }
    }

    private void stop() throws IOException, InterruptedException, ExecutionException, TimeoutException {
        final List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        for (final ProcessHandle child : children) {
            child.destroyForcibly();
        }
        for (final ProcessHandle child : children) {
            child.onExit().get(10, TimeUnit.SECONDS);
        }
        // Owners killed just now leave their link files in /dev/shm: reclaim them as the next
        // supervisor would (tests leak nothing).
        dev.saccade.ipc.link.StaleLinkFiles.reclaim(runtime);
        pump.join(5_000);
        if (Files.exists(runtime.getParent())) {
            try (var files = Files.walk(runtime.getParent())) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
