package dev.saccade.ipc;

import dev.saccade.testsupport.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM running a test main class with our test classpath. Its stdout and stderr lines
 * are collected; closing its stdin makes it halt (see {@link EndpointHolder}), and
 * {@link #close()} SIGKILLs it and waits, so no child outlives its test.
 */
final class ForkedJvm implements AutoCloseable {
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private ForkedJvm(final Process process) {
        this.process = process;
        this.reader = new Thread(this::drain, "child-" + process.pid() + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    static ForkedJvm start(final Class<?> mainClass, final String... args) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Chronicle flags, if the build passes them; the children here do not load Chronicle.
        for (final String flag : System.getProperty("saccade.jvm.flags", "").trim().split("\\s+")) {
            if (!flag.isEmpty()) {
                command.add(flag);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        return new ForkedJvm(builder.start());
    }

    Process process() {
        return process;
    }

    List<String> lines() {
        return lines;
    }

    long countLines(final String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).count();
    }

    /** The first line starting with {@code prefix}, waiting for it; fails if the child exits first. */
    String awaitLine(final String prefix, final Duration timeout) {
        Await.until(() -> countLines(prefix) > 0 || !process.isAlive() && !reader.isAlive(), timeout,
            () -> "child line '" + prefix + "'; output so far: " + lines);
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
            .orElseThrow(() -> new AssertionError("child exited without '" + prefix + "': " + lines));
    }

    /** SIGKILL, then wait for the exit. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("child " + process.pid() + " survived SIGKILL for 10 s");
        }
    }

    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                kill();
            }
            reader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's to see: close() does not throw it
        }
    }

    private void drain() {
        try (BufferedReader in = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        } catch (final IOException ignore) {
            // The child died with its pipe; the lines so far are all there is.
        }
    }
}
