package dev.saccade.owner.helper;

import dev.saccade.ipc.ChildJvm;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.ipc.link.LinkFileDescriptor;
import dev.saccade.ipc.link.LinkPaths;
import dev.saccade.ipc.link.OwnerLifeline;
import dev.saccade.ipc.link.OwnerSide;
import dev.saccade.ipc.link.SessionNonce;
import dev.saccade.ipc.link.StaleLinkFiles;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One input helper as this owner links to it: its own link file and lifeline, each with a fresh
 * session nonce, and its process when this owner launched it (null for the supervisor's helper).
 * The nonce goes to a launched helper in the environment, never on the command line, where other
 * local users could read it; the helper JVM runs on a classpath without the owner's own code.
 */
final class HelperIncarnation {
    private static final Logger LOG = LoggerFactory.getLogger(HelperIncarnation.class);

    final OwnerSide link;
    final OwnerLifeline lifeline;
    final Process process;
    /** The executor's number for this link, 0 while it was never handed to the executor. */
    volatile long executorNumber;
    volatile boolean attached;
    volatile boolean lost;

    HelperIncarnation(final OwnerSide link, final OwnerLifeline lifeline, final Process process) {
        this.link = link;
        this.lifeline = lifeline;
        this.process = process;
    }

    /** A link file and lifeline for the supervisor's helper, named by our pid (ledger seeded when given). */
    static HelperIncarnation openLink(final Path runtimeDirectory, final String display, final HeldInputLedger seed,
        final byte[] nonce) throws IOException {
        final long pid = ProcessHandle.current().pid();
        reclaim(runtimeDirectory, display); // what crashed predecessors left
        final OwnerSide link = createLink(LinkPaths.linkFile(runtimeDirectory, RuntimeDirectory.currentUid(), pid),
            nonce, seed);
        try {
            final OwnerLifeline lifeline = OwnerLifeline.bind(LinkPaths.lifelineSocket(runtimeDirectory, pid), nonce);
            LOG.info("event=helper_link_open link={} lifeline={}", link.path(), lifeline.path());
            return new HelperIncarnation(link, lifeline, null);
        } catch (final IOException | RuntimeException e) {
            link.close();
            throw e;
        }
    }

    /**
     * Removes what crashed predecessors left; a dead owner's link whose ledger still holds input
     * (its helper died too) is released over our own X connection first, never just deleted.
     */
    private static void reclaim(final Path runtimeDirectory, final String display) {
        StaleLinkFiles.reclaim(runtimeDirectory, ledger -> OwnerXRelease.release(display, ledger) == ResultCode.PLATFORM_OK);
    }

    /** A new link file with {@code nonce}, its ledger a copy of {@code seed} when given. */
    private static OwnerSide createLink(final Path file, final byte[] nonce, final HeldInputLedger seed)
        throws IOException {
        final OwnerSide link = OwnerSide.create(file, LinkFileDescriptor.DEFAULT_PLAN_RING_CAPACITY,
            LinkFileDescriptor.DEFAULT_COMPLETION_RING_CAPACITY, nonce);
        if (seed != null) {
            final BytesStore<?, ?> store = link.ledgerStore();
            final long at = link.ledgerOffset();
            store.write(at, seed.bytes(), seed.offset(), HeldInputLedger.LENGTH);
            final long version = store.readLong(at + HeldInputLedger.VERSION_OFFSET);
            // a change in flight when the writer died: even it, so the new writer's seqlock is sound
            store.writeOrderedLong(at + HeldInputLedger.VERSION_OFFSET, version + (version & 1));
        }
        return link;
    }

    /**
     * A new link file (nonce, rings; its ledger a copy of {@code seed} when given), lifeline and
     * helper process.
     */
    static HelperIncarnation launch(final Path runtimeDirectory, final String display, final HeldInputLedger seed)
        throws IOException {
        final byte[] nonce = SessionNonce.generate();
        reclaim(runtimeDirectory, display); // what crashed predecessors left
        // named by our pid, as for the supervisor's helper: two owners of one user (two sessions, a
        // demo desktop beside the login item) each launching a helper must not replace each other's
        // link between its creation and their helper opening it (the helper then fails the nonce)
        final OwnerSide link = createLink(LinkPaths.linkFile(runtimeDirectory, RuntimeDirectory.currentUid(),
            ProcessHandle.current().pid()), nonce, seed);
        OwnerLifeline lifeline = null;
        try {
            lifeline = OwnerLifeline.bind(LinkPaths.lifelineSocket(runtimeDirectory), nonce);
            final List<String> command = new ArrayList<>();
            command.add(ChildJvm.javaExecutable());
            command.addAll(ChildJvm.jvmFlags());
            command.add("-cp");
            command.add(ChildJvm.helperClasspath(System.getProperty("java.class.path"), InputHelperLauncher.LEFT_OUT));
            command.add(InputHelperLauncher.MAIN_CLASS);
            command.add("--link");
            command.add(link.path().toString());
            command.add("--lifeline");
            command.add(lifeline.path().toString());
            command.add("--owner-pid");
            command.add(Long.toString(ProcessHandle.current().pid()));
            command.add("--display");
            command.add(display);
            final Path log = runtimeDirectory.resolve(InputHelperLauncher.LOG_FILE_NAME);
            if (Files.notExists(log)) {
                Files.createFile(log, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().put(SessionNonce.ENVIRONMENT_VARIABLE, SessionNonce.toHex(nonce));
            builder.environment().put("DISPLAY", display);
            final Process process = builder.start();
            LOG.info("event=helper_start pid={} link={} display={}", process.pid(), link.path(), display);
            return new HelperIncarnation(link, lifeline, process);
        } catch (final IOException | RuntimeException e) {
            if (lifeline != null) {
                lifeline.close();
            }
            link.close();
            throw e;
        }
    }

    /** The helper's pid: the launched process's, else the peer's on the lifeline (0 before it attached). */
    static long pidOf(final HelperIncarnation inc) {
        return inc.process != null ? inc.process.pid() : inc.lifeline.helperPid();
    }

    static void closeQuietly(final HelperIncarnation inc) {
        try {
            inc.lifeline.close();
        } catch (final IOException e) {
            LOG.warn("event=lifeline_close_failed error={}", e.toString());
        }
        try {
            inc.link.close();
        } catch (final IOException e) {
            LOG.warn("event=link_close_failed error={}", e.toString());
        }
    }
}
