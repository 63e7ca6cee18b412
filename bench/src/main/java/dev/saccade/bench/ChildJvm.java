package dev.saccade.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM running a main of this jar with this JVM's module and Chronicle flags (what
 * {@code bench/run} passed from the root pom's {@code saccade.jvm.flags}); its output lines are
 * collected. {@link #close()} SIGKILLs it if it is still running and waits, so no child outlives
 * its benchmark.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private ChildJvm(final Process process) {
        this.process = process;
        this.reader = new Thread(this::drain, "child-" + process.pid() + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    static ChildJvm start(final Class<?> mainClass, final Map<String, String> env, final String... args)
        throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-opens") || argument.startsWith("--add-exports")
                || argument.startsWith("-Dchronicle.") || argument.startsWith("-Dorg.slf4j.")) {
                command.add(argument);
            }
        }
        command.add("-Xmx64m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        return new ChildJvm(builder.start());
    }

    long pid() {
        return process.pid();
    }

    /** Waits (polling every 10 ms) for a line starting with {@code prefix}; fails if the child exits first. */
    String awaitLine(final String prefix, final long timeoutMs) throws InterruptedException {
        final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() - until < 0) {
            for (final String line : lines) {
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
            if (!process.isAlive() && !reader.isAlive()) {
                break;
            }
            Thread.sleep(10); // a benchmark's start-up, not a test's synchronisation
        }
        throw new IllegalStateException("child " + process.pid() + " printed no '" + prefix + "': " + lines);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("child " + process.pid() + " survived SIGKILL for 10 s");
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
