package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real {@code saccade owner run} ({@link Main}) in its own JVM on the test's class path, on a
 * desktop session's display and bus, in a temporary 0700 runtime directory: an owner a test can
 * kill with SIGKILL while its own input helper holds input for a connected agent. {@link #close()}
 * kills what is left and reclaims the link a killed owner leaves behind.
 */
final class OwnerProcess implements AutoCloseable {
    private static final Pattern HELPER_PID = Pattern.compile("event=helper_start pid=(\\d+)");

    final Process process;
    final Path runtime;
    final Path ownerLog;
    final Path helperLog;
    final long helperPid;

    private OwnerProcess(final Process process, final Path runtime, final long helperPid) {
        this.process = process;
        this.runtime = runtime;
        this.ownerLog = runtime.resolve("owner.log");
        this.helperLog = runtime.resolve("saccade-input-helper.log");
        this.helperPid = helperPid;
    }

    /** Starts an owner on {@code display} with AT-SPI on {@code sessionBus}; returns once its helper attached. */
    static OwnerProcess start(final String display, final String sessionBus, final String name) throws Exception {
        final Path runtime = Files.createTempDirectory(name,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path log = runtime.resolve("owner.log");
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        final String flags = System.getProperty("saccade.jvm.flags", "");
        if (!flags.isBlank()) {
            command.addAll(Arrays.asList(flags.trim().split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "owner", "run",
            "--display", display, "--runtime-dir", runtime.toString()));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("DBUS_SESSION_BUS_ADDRESS", sessionBus);
        final Process process = builder.start();
        try {
            final Path helperLog = runtime.resolve("saccade-input-helper.log");
            ProcessLog.awaitContains(process, helperLog, log, Duration.ofSeconds(60), "event=helper_attached");
            final Matcher pid = HELPER_PID.matcher(Files.readString(log));
            assertTrue(pid.find(), () -> "the owner logged its helper's pid:\n" + ProcessLog.read(log));
            return new OwnerProcess(process, runtime, Long.parseLong(pid.group(1)));
        } catch (final Throwable t) {
            process.destroyForcibly();
            KilledOwners.reclaim(runtime, process);
            delete(runtime);
            throw t;
        }
    }

    /** The owner's agent endpoint. */
    Path endpoint() {
        return runtime.resolve("saccade-agent-v1.sock");
    }

    /** A connection of API 0x00010002 that said hello with the policy capabilities. */
    AgentClient connectMinor2() throws Exception {
        final AgentClient client = AgentClient.connect(endpoint(), Duration.ofSeconds(10));
        client.readTimeout(Duration.ofSeconds(20));
        client.apiVersion(AgentAbi.API_VERSION_1_2);
        client.hello(1, Capability.POLICY, 0);
        return client;
    }

    /** The helper process, while it runs. */
    Optional<ProcessHandle> helper() {
        return ProcessHandle.of(helperPid).filter(ProcessHandle::isAlive);
    }

    /** Kills the owner with SIGKILL (no shutdown hook runs) and waits for it to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertTrue(process.waitFor(10, TimeUnit.SECONDS), "the owner died");
    }

    /** Both logs, for a failure message. */
    String logs() {
        return "owner log:\n" + ProcessLog.read(ownerLog) + "\nhelper log:\n" + ProcessLog.read(helperLog);
    }

    @Override
    public void close() throws IOException {
        try {
            // The owner first: its helper then releases what it holds and exits by itself.
            process.destroyForcibly();
            helper().ifPresent(h -> h.onExit().completeOnTimeout(h, 5, TimeUnit.SECONDS).join().destroyForcibly());
            KilledOwners.reclaim(runtime, process);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted stopping the owner " + process.pid());
        } finally {
            delete(runtime);
        }
    }

    private static void delete(final Path directory) throws IOException {
        if (Files.exists(directory)) {
            try (var files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
