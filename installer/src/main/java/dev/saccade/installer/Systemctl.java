package dev.saccade.installer;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code systemctl --user}, run as a process: whether a user manager is reachable, and enabling
 * or disabling our unit. The executable is {@value InstallerConfiguration#SYSTEMCTL_DEFAULT} unless the system
 * property {@value InstallerConfiguration#SYSTEMCTL_PROP_NAME} names another (tests use a stand-in that records its
 * arguments, since a test must never enable a unit in the real user manager).
 */
public final class Systemctl {
    /** A hung manager must not hang install; enabling a unit takes milliseconds when it works. */
    static final long TIMEOUT_MS = 30_000;
    /** States of {@code is-system-running} in which the manager answers (it prints offline or nothing when not). */
    static final Set<String> REACHABLE_STATES = Set.of("initializing", "starting", "running", "degraded", "maintenance");

    private final String executable;

    public Systemctl() {
        this(InstallerConfiguration.systemctl());
    }

    public Systemctl(final String executable) {
        this.executable = executable;
    }

    /** The outcome of one run: exit code and the output of both streams, merged. */
    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    /**
     * Whether a user manager answers: {@code systemctl --user is-system-running} prints its state,
     * which is reachable even when degraded (exit code 1); without a manager or bus it prints
     * {@code offline} or fails to connect.
     */
    public boolean userManagerReachable() {
        try {
            final Result r = run(List.of("--user", "is-system-running"));
            final String state = r.output().strip();
            return REACHABLE_STATES.contains(state);
        } catch (final IOException ignore) {
            return false; // ignore: no systemctl at all: no user manager to talk to
        }
    }

    /** Runs {@code systemctl} with {@code arguments} (the command's words after its name). */
    public Result run(final List<String> arguments) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(executable);
        command.addAll(arguments);
        // Output to a file, not a pipe: a pipe read would block past the timeout if systemctl hung.
        final Path output = Files.createTempFile("saccade-systemctl", ".out"); // 0600
        try {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(output.toFile()).start();
            try {
                if (!process.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new IOException(executable + " did not finish within " + TIMEOUT_MS + " ms");
                }
            } catch (final InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for " + executable, e);
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
