package dev.saccade.ipc.link;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.GuardedFile;
import dev.saccade.ipc.RuntimeDirectory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reclaims the link files and lifeline sockets of owners that died without closing them (kill -9,
 * a crash): a 2 MiB link file in the runtime directory (or, from earlier versions, in
 * {@code /dev/shm}) is RAM, and a crash-looping owner would otherwise fill it. The supervisor runs this at its start and after each owner exit, and each owner before it
 * makes its own link, so whatever an earlier crash left is gone by the time the next one serves.
 *
 * <p>A file is removed only if it is ours (its uid is ours, it is a regular file or a socket, not a
 * symlink), checked before it is ever opened, and the owner it names is not alive: the pid in the name ({@code saccade-input-v1-<uid>-<pid>},
 * {@code saccade-input-v1-<pid>.lifeline.sock} and its {@code .lock}), or for the one shared link file
 * {@code saccade-input-v1-<uid>} the owner pid in its control block. A pid that is alive keeps its files,
 * whoever runs under it now (a reused pid only delays the reclaim until that process ends); a file
 * whose owner pid cannot be read yet (one being created) is kept. A helper that still maps a removed
 * file keeps its mapping: unlinking never pulls pages from under a live mapping.
 *
 * <p>Deleting a lifeline's lock file is safe here although {@link EndpointListener} never deletes its
 * own: only the process with that pid ever binds that name, and it is gone.
 */
public final class StaleLinkFiles {
    private static final Logger LOG = LoggerFactory.getLogger(StaleLinkFiles.class);
    private static final String LIFELINE_SUFFIX = LinkPaths.LIFELINE_SOCKET_NAME.substring(
        LinkPaths.LIFELINE_SOCKET_NAME.indexOf(".lifeline."));
    private static final String LIFELINE_LOCK_SUFFIX = LIFELINE_SUFFIX + EndpointListener.LOCK_SUFFIX;
    private static final String NAME_PREFIX = LinkPaths.LINK_FILE_PREFIX;
    private static final int FILE_TYPE_MASK = 0170000;
    private static final int FILE_TYPE_REGULAR = 0100000;
    private static final int FILE_TYPE_SOCKET = 0140000;
    private static final long IN_CONTROL_BLOCK = -2;

    /** Never releases: a link file whose ledger holds input is kept for a process that can. */
    public static final HeldInputRelease KEEP_HELD = ledger -> false;

    private StaleLinkFiles() {
    }

    /**
     * Lets go of the input a dead owner's ledger says is held (the X server keeps XTest input
     * down when its client dies), over a connection of the caller's own.
     */
    @FunctionalInterface
    public interface HeldInputRelease {
        /** @return whether everything {@code ledger} (a copy) holds was released. */
        boolean release(HeldInputLedger ledger);
    }

    /** As {@link #reclaim(Path)}, releasing the held input of a dead owner's link before removing it. */
    public static int reclaim(final Path runtimeDirectory, final HeldInputRelease release) {
        final int uid;
        try {
            uid = RuntimeDirectory.currentUid();
        } catch (final IOException e) {
            LOG.warn("event=stale_link_scan_failed error={}", e.toString());
            return 0;
        }
        return reclaim(LinkPaths.linkFile(runtimeDirectory, uid).getParent(), runtimeDirectory, uid,
            StaleLinkFiles::isAlive, release);
    }

    /**
     * Removes the stale link files of our uid (in {@code runtimeDirectory}, and those earlier
     * versions left in {@code /dev/shm}) and the stale lifelines in {@code runtimeDirectory}.
     *
     * @return how many files were removed; failures are logged, never thrown (a reclaim must not
     *     stop a supervisor or an owner from starting).
     */
    public static int reclaim(final Path runtimeDirectory) {
        return reclaim(runtimeDirectory, KEEP_HELD);
    }

    /** As {@link #reclaim(Path)} with every input given (tests); link files holding input are kept. */
    public static int reclaim(final Path shmDirectory, final Path runtimeDirectory, final int uid, final LongPredicate alive) {
        return reclaim(shmDirectory, runtimeDirectory, uid, alive, KEEP_HELD);
    }

    /** As {@link #reclaim(Path, HeldInputRelease)} with every input given (tests). */
    public static int reclaim(final Path shmDirectory, final Path runtimeDirectory, final int uid, final LongPredicate alive,
        final HeldInputRelease release) {
        int removed = 0;
        final String linkPrefix = NAME_PREFIX + uid;
        final OwnerOf linkOwner = name -> {
            if (name.equals(linkPrefix)) {
                return IN_CONTROL_BLOCK;
            }
            return name.startsWith(linkPrefix + "-") ? pid(name.substring(linkPrefix.length() + 1)) : 0;
        };
        removed += sweep(shmDirectory, uid, alive, linkOwner, release);
        removed += sweep(runtimeDirectory, uid, alive, name -> {
            final long lifeline = lifelinePid(name);
            return lifeline != 0 ? lifeline : linkOwner.pid(name);
        }, release);
        return removed;
    }

    /** Whether {@code pid} is a live process (a zombie not yet reaped counts as alive). */
    public static boolean isAlive(final long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * The owner pid a file name names, {@link #IN_CONTROL_BLOCK} if the file's content names it,
     * or 0 if the file is not one of ours to judge.
     */
    private interface OwnerOf {
        long pid(String name);
    }

    private static int sweep(final Path directory, final int uid, final LongPredicate alive, final OwnerOf ownerOf,
        final HeldInputRelease release) {
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, NAME_PREFIX + "*")) {
            for (final Path file : entries) {
                final long named = ownerOf.pid(file.getFileName().toString());
                if (named == 0) {
                    continue;
                }
                // Type and owner before any open: a FIFO or another user's file under our name is
                // skipped (and said), never read, so nobody can stall a start by planting one.
                if (!ours(file, uid)) {
                    LOG.warn("event=stale_link_skipped path={} reason=not_a_regular_file_or_socket_of_uid_{}", file, uid);
                    continue;
                }
                final long pid = named == IN_CONTROL_BLOCK ? ownerPidInControlBlock(file, uid) : named;
                if (pid <= 0 || alive.test(pid) || !heldInputReleased(file, uid, release)) {
                    continue;
                }
                try {
                    if (Files.deleteIfExists(file)) {
                        removed++;
                        LOG.info("event=stale_link_removed path={} owner_pid={}", file, pid);
                    }
                } catch (final IOException e) {
                    LOG.warn("event=stale_link_remove_failed path={} error={}", file, e.toString());
                }
            }
        } catch (final NoSuchFileException absent) {
            return 0;
        } catch (final IOException | RuntimeException e) {
            LOG.warn("event=stale_link_scan_failed directory={} error={}", directory, e.toString());
        }
        return removed;
    }

    private static long lifelinePid(final String name) {
        final String rest;
        if (name.endsWith(LIFELINE_LOCK_SUFFIX)) {
            rest = name.substring(0, name.length() - LIFELINE_LOCK_SUFFIX.length());
        } else if (name.endsWith(LIFELINE_SUFFIX)) {
            rest = name.substring(0, name.length() - LIFELINE_SUFFIX.length());
        } else {
            return 0;
        }
        final String stem = LinkPaths.LIFELINE_SOCKET_NAME.substring(0, LinkPaths.LIFELINE_SOCKET_NAME.length()
            - LIFELINE_SUFFIX.length()); // "saccade-input-v1"
        return rest.startsWith(stem + "-") ? pid(rest.substring(stem.length() + 1)) : 0;
    }

    private static long pid(final String digits) {
        if (digits.isEmpty() || digits.length() > 18) {
            return 0;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return 0;
            }
        }
        return Long.parseLong(digits);
    }

    /** The owner pid written into a link file's control block, 0 while unreadable or not written yet. */
    private static long ownerPidInControlBlock(final Path file, final int uid) {
        final int length = LinkFileDescriptor.OWNER_PID_OFFSET + Long.BYTES;
        try {
            final ByteBuffer header = ByteBuffer.wrap(GuardedFile.readPrefix(file, length, uid))
                .order(ByteOrder.LITTLE_ENDIAN);
            if (header.limit() < length || header.getLong(LinkFileDescriptor.MAGIC_OFFSET) != LinkFileDescriptor.MAGIC) {
                return 0;
            }
            return header.getLong(LinkFileDescriptor.OWNER_PID_OFFSET);
        } catch (final GuardedFile.RefusedFileException e) {
            LOG.warn("event=stale_link_skipped path={} reason={}", file, e.getMessage());
            return 0;
        } catch (final IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Whether a dead owner's link file may go: it holds no input, or {@code release} let go of
     * what its ledger says is held. A file that cannot be read as a link (a lifeline, a short
     * file) holds none. A ledger is never removed with input in it: the X server would keep
     * those keys down for good.
     */
    private static boolean heldInputReleased(final Path file, final int uid, final HeldInputRelease release) {
        final int end = LinkFileDescriptor.LEDGER_OFFSET + HeldInputLedger.LENGTH;
        final byte[] head;
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                return true;
            }
            head = GuardedFile.readPrefix(file, end, uid);
        } catch (final IOException | RuntimeException e) {
            return true;
        }
        if (head.length < end || ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN)
            .getLong(LinkFileDescriptor.MAGIC_OFFSET) != LinkFileDescriptor.MAGIC) {
            return true;
        }
        final HeldInputLedger ledger = new HeldInputLedger().wrap(
            net.openhft.chronicle.bytes.BytesStore.wrap(head), LinkFileDescriptor.LEDGER_OFFSET);
        if (ledger.isEmpty()) {
            return true;
        }
        final boolean released = release.release(ledger);
        if (released) {
            LOG.info("event=stale_link_input_released path={} ledger=\"{}\"", file, ledger);
        } else {
            LOG.warn("event=stale_link_kept path={} reason=held_input ledger=\"{}\"", file, ledger);
        }
        return released;
    }

    private static boolean ours(final Path file, final int uid) {
        try {
            final Map<String, Object> a = Files.readAttributes(file, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
            final int type = (Integer) a.get("mode") & FILE_TYPE_MASK;
            return (Integer) a.get("uid") == uid && (type == FILE_TYPE_REGULAR || type == FILE_TYPE_SOCKET);
        } catch (final IOException | RuntimeException e) {
            return false;
        }
    }
}
