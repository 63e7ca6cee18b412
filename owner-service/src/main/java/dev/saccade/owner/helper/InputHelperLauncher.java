package dev.saccade.owner.helper;

import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.ipc.link.LinkFileDescriptor;
import dev.saccade.ipc.link.LinkPaths;
import dev.saccade.ipc.link.OwnerLifeline;
import dev.saccade.ipc.link.OwnerSide;
import dev.saccade.ipc.link.SessionNonce;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the input helper as its own process and links it to this owner: a fresh link file and
 * lifeline with a new session nonce (passed in the environment, never on the command line,
 * where other local users could read it), the helper JVM on a classpath without the owner's
 * own code, and a launcher thread that waits for its lifeline handshake before plans may flow.
 * {@link #close()} stops the helper with SIGTERM, on which it releases everything it holds.
 */
public final class InputHelperLauncher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InputHelperLauncher.class);
    public static final String MAIN_CLASS = "dev.saccade.helper.InputHelperMain";
    public static final String JVM_FLAGS_PROP = "saccade.jvm.flags";
    /**
     * What the helper never loads, by jar file name (the distribution, Maven's repository) or by
     * a module's build directory (tests): the owner's semantics, the CLI, tests and benchmarks.
     */
    private static final String[] NOT_FOR_THE_HELPER = {
        "saccade-owner-service", "saccade-cli", "saccade-test-desktop", "saccade-supervisor", "saccade-installer",
        "dbus-java", "picocli", "jackson", "HdrHistogram", "junit", "opentest4j", "apiguardian", "surefire",
        "owner-service/target/classes", "cli/target/classes", "test-desktop/target/classes", "test-classes"};
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);
    /** The helper's own log, in the runtime directory (0700), where `saccade doctor` can point. */
    public static final String LOG_FILE_NAME = "saccade-input-helper.log";

    private final OwnerSide link;
    private final OwnerLifeline lifeline;
    private final ShmInputExecutor executor;
    private final Process process;
    private final Thread awaiter;

    private InputHelperLauncher(final OwnerSide link, final OwnerLifeline lifeline, final Process process) {
        this.link = link;
        this.lifeline = lifeline;
        this.executor = new ShmInputExecutor(link, lifeline);
        this.process = process;
        this.awaiter = new Thread(this::awaitHandshake, "saccade-helper-launcher");
        awaiter.setDaemon(true);
    }

    /** Starts a helper for {@code display}; plans flow once its handshake completes. */
    public static InputHelperLauncher start(final Path runtimeDirectory, final String display) throws IOException {
        final byte[] nonce = SessionNonce.generate();
        final OwnerSide link = OwnerSide.create(LinkPaths.linkFile(runtimeDirectory, RuntimeDirectory.currentUid()),
            LinkFileDescriptor.DEFAULT_PLAN_RING_CAPACITY, LinkFileDescriptor.DEFAULT_COMPLETION_RING_CAPACITY, nonce);
        OwnerLifeline lifeline = null;
        try {
            lifeline = OwnerLifeline.bind(LinkPaths.lifelineSocket(runtimeDirectory), nonce);
            final List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(helperJvmFlags());
            command.add("-cp");
            command.add(helperClasspath(System.getProperty("java.class.path")));
            command.add(MAIN_CLASS);
            command.add("--link");
            command.add(link.path().toString());
            command.add("--lifeline");
            command.add(lifeline.path().toString());
            command.add("--owner-pid");
            command.add(Long.toString(ProcessHandle.current().pid()));
            command.add("--display");
            command.add(display);
            final Path log = runtimeDirectory.resolve(LOG_FILE_NAME);
            if (java.nio.file.Files.notExists(log)) {
                java.nio.file.Files.createFile(log, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            }
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(runtimeDirectory.resolve(LOG_FILE_NAME).toFile()));
            builder.environment().put(SessionNonce.ENVIRONMENT_VARIABLE, SessionNonce.toHex(nonce));
            builder.environment().put("DISPLAY", display);
            final InputHelperLauncher launcher = new InputHelperLauncher(link, lifeline, builder.start());
            launcher.awaiter.start();
            LOG.info("event=helper_start pid={} link={} display={}", launcher.process.pid(), link.path(), display);
            return launcher;
        } catch (final IOException | RuntimeException e) {
            if (lifeline != null) {
                lifeline.close();
            }
            link.close();
            throw e;
        }
    }

    /**
     * The JVM flags Chronicle Bytes and JNA need: the build's list when given (tests), else the
     * ones this JVM was started with by {@code bin/saccade}.
     */
    static List<String> helperJvmFlags() {
        final List<String> flags = new ArrayList<>();
        final String given = System.getProperty(JVM_FLAGS_PROP, "").trim();
        if (!given.isEmpty()) {
            for (final String flag : given.split("\\s+")) {
                flags.add(flag);
            }
            return flags;
        }
        for (final String arg : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") || arg.startsWith("--enable-native-access")
                || arg.startsWith("--sun-misc-unsafe-memory-access") || arg.startsWith("-Dchronicle.")
                || arg.startsWith("-Dorg.slf4j.")) {
                flags.add(arg);
            }
        }
        return flags;
    }

    /** The classpath entries the helper needs: everything but {@link #NOT_FOR_THE_HELPER}. */
    static String helperClasspath(final String classpath) {
        final StringBuilder kept = new StringBuilder();
        for (final String entry : classpath.split(File.pathSeparator)) {
            if (entry.endsWith(File.separator + "*")) {
                // bin/saccade's `lib/*`: the JVM expands it, java.class.path does not
                final File[] jars = new File(entry.substring(0, entry.length() - 2)).listFiles(
                    f -> f.getName().endsWith(".jar"));
                if (jars != null) {
                    for (final File jar : jars) {
                        keep(kept, jar.getPath(), jar.getName());
                    }
                }
            } else {
                keep(kept, entry, entry.endsWith(".jar") ? new File(entry).getName() : entry);
            }
        }
        return kept.toString();
    }

    private static void keep(final StringBuilder kept, final String entry, final String judgedBy) {
        for (final String excluded : NOT_FOR_THE_HELPER) {
            if (judgedBy.contains(excluded)) {
                return;
            }
        }
        kept.append(kept.length() == 0 ? "" : File.pathSeparator).append(entry);
    }

    private void awaitHandshake() {
        try {
            lifeline.awaitHelper(process.pid(), HANDSHAKE_TIMEOUT);
            executor.attach();
            LOG.info("event=helper_attached pid={}", process.pid());
        } catch (final IOException e) {
            LOG.error("event=helper_attach_failed pid={} error={}", process.pid(), e.toString());
        }
    }

    public ShmInputExecutor executor() {
        return executor;
    }

    public Process process() {
        return process;
    }

    /** Waits until the helper is attached, or the timeout passes. */
    public boolean awaitAttached(final Duration timeout) throws InterruptedException {
        awaiter.join(timeout.toMillis());
        return executor.attached();
    }

    @Override
    public void close() throws IOException {
        process.destroy(); // SIGTERM: the helper releases everything it holds, then exits
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            lifeline.close();
        } finally {
            link.close();
        }
    }
}
