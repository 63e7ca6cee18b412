package dev.saccade.ipc.link;

import dev.saccade.testsupport.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM running one of this package's test mains on our test classpath with the Chronicle
 * flags surefire passes in {@code saccade.jvm.flags}. Lines it prints are collected; lines can be
 * sent to its standard input; closing stdin asks it to stop; {@link #close()} SIGKILLs whatever
 * is left and waits, so no child outlives its test.
 */
final class LinkChild implements AutoCloseable {
    /** The link tests' waits poll every 100 µs: what they wait for takes well under a millisecond. */
    static final Duration POLL = Duration.ofNanos(100_000);
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private final OutputStream stdin;

    private LinkChild(final Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        this.reader = new Thread(this::drain, "child-" + process.pid() + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    static LinkChild start(final Class<?> mainClass, final Map<String, String> env, final String... args)
        throws IOException {
        return start(List.of(), mainClass, env, args);
    }

    /** As {@link #start(Class, Map, String...)}, the JVM started by {@code wrapper} (its command line's head). */
    static LinkChild start(final List<String> wrapper, final Class<?> mainClass, final Map<String, String> env,
        final String... args) throws IOException {
        final List<String> command = new ArrayList<>(wrapper);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(chronicleFlags());
        command.add("-Xmx64m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        return new LinkChild(builder.start());
    }

    /**
     * The Chronicle flags for the child: {@code saccade.jvm.flags} if the build set that system
     * property, else the module-access and Chronicle flags this JVM itself was started with
     * (surefire passes {@code saccade.jvm.flags} as its argLine, not as a property).
     */
    static List<String> chronicleFlags() {
        final List<String> flags = new ArrayList<>();
        final String property = System.getProperty("saccade.jvm.flags", "").trim();
        if (!property.isEmpty()) {
            flags.addAll(List.of(property.split("\\s+")));
            return flags;
        }
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-opens") || argument.startsWith("--add-exports")
                || argument.startsWith("-Dchronicle.") || argument.startsWith("-Dorg.slf4j.")) {
                flags.add(argument);
            }
        }
        return flags;
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    List<String> lines() {
        return lines;
    }

    void send(final String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    void closeStdin() throws IOException {
        stdin.close();
    }

    /** The first line starting with {@code prefix}, waiting for it; fails if the child exits first. */
    String awaitLine(final String prefix, final Duration timeout) {
        Await.until(() -> find(prefix) != null || !process.isAlive() && !reader.isAlive(), timeout, POLL,
            () -> "child line '" + prefix + "'; output so far: " + lines);
        final String line = find(prefix);
        if (line == null) {
            throw new AssertionError("child exited (" + process.exitValue() + ") without '" + prefix + "': " + lines);
        }
        return line;
    }

    /** The value of {@code key=value} in a line. */
    static String field(final String line, final String key) {
        for (final String part : line.split(" ")) {
            if (part.startsWith(key + "=")) {
                return part.substring(key.length() + 1);
            }
        }
        throw new AssertionError("no " + key + "= in: " + line);
    }

    boolean printed(final String text) {
        for (final String line : lines) {
            if (line.contains(text)) {
                return true;
            }
        }
        return false;
    }

    private String find(final String prefix) {
        for (final String line : lines) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return null;
    }

    /** SIGKILL, then wait for the exit. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("child " + process.pid() + " survived SIGKILL for 10 s");
        }
    }

    /** Waits for the child to exit by itself. */
    int awaitExit(final Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child " + process.pid() + " did not exit; output: " + lines);
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                kill();
            }
            reader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping child " + process.pid(), e);
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
