package dev.saccade.ipc;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The per-user runtime directory {@code $RUN} that holds every Saccade socket (docs/architecture.md,
 * "Processes"): {@code $XDG_RUNTIME_DIR/saccade}, or {@code /tmp/saccade-<uid>} where that
 * variable is unset, empty or not absolute (the XDG spec says to ignore a relative value), or
 * {@code $HOME/.saccade-run-<uid>} where another user created {@code /tmp/saccade-<uid>} first.
 *
 * <p>{@link #ensure(Path)} creates it with mode 0700 and refuses to use it unless it is a real
 * directory (not a symbolic link), owned by our uid, with no group or other permission bits.
 * A pre-existing directory with a wrong mode is refused, never repaired: while it was open,
 * another local user could have planted a socket or lock file in it (e.g. in a shared
 * {@code /tmp}), and tightening the mode silently would hide that. Only a directory this call
 * created itself gets its mode set to 0700 (so a restrictive umask cannot leave it unusable).
 * The parent is never created: {@code $XDG_RUNTIME_DIR} belongs to the session manager, and a
 * missing one means a broken session, which we report instead of papering over.
 *
 * <p>Our uid is the owner of {@code /proc/self} (the effective uid, the same one the kernel
 * reports to peers through SO_PEERCRED); no native code is needed.
 */
public final class RuntimeDirectory {
    /** Name of our directory inside {@code $XDG_RUNTIME_DIR}. */
    public static final String DIRECTORY_NAME = "saccade";
    /** Prefix of the fallback {@code /tmp/saccade-<uid>}. */
    public static final String FALLBACK_PREFIX = "saccade-";
    /** Prefix of {@code $HOME/.saccade-run-<uid>}, used when another user holds {@code /tmp/saccade-<uid>}. */
    public static final String HOME_FALLBACK_PREFIX = ".saccade-run-";
    public static final String XDG_RUNTIME_DIR = "XDG_RUNTIME_DIR";

    /** Agent endpoint, binary ABI (spec/agent-abi.md §1.1). */
    public static final String AGENT_SOCKET_NAME = "saccade-agent-v1.sock";
    /** PCP endpoint, JSON-RPC 2.0 one message a line. */
    public static final String PCP_SOCKET_NAME = "saccade-pcp-v1.sock";
    /** Supervisor control socket. */
    public static final String SUPERVISOR_SOCKET_NAME = "saccade-supervisor-v1.sock";

    /** Mode of the directory: owner only. */
    public static final int DIRECTORY_MODE = 0700;

    private static final int MODE_PERMISSION_BITS = 0777;
    private static final int GROUP_OTHER_BITS = 0077;
    private static final int FILE_TYPE_MASK = 0170000;
    private static final int FILE_TYPE_DIRECTORY = 0040000;
    private static final int FILE_TYPE_SYMLINK = 0120000;
    private static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(
        PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private RuntimeDirectory() {
    }

    /**
     * Where {@code $RUN} is for this environment and uid; touches nothing on disk.
     *
     * @param env the process environment ({@code System.getenv()}), or a test's own map.
     */
    public static Path resolve(final Map<String, String> env, final int uid) {
        final String xdg = env.get(XDG_RUNTIME_DIR);
        if (xdg != null && !xdg.isEmpty()) {
            final Path base = Path.of(xdg);
            if (base.isAbsolute()) {
                return base.resolve(DIRECTORY_NAME);
            }
        }
        return fallback(env, uid, Path.of("/tmp"));
    }

    /**
     * {@code tmp/saccade-<uid>}, unless something there is not our directory: any local user can
     * create that name first (and {@link #ensure} would then refuse it for good), so such a name
     * is passed over for {@code $HOME/.saccade-run-<uid>}, which no one else can create. Both
     * sides (server and clients) read the same files and so come to the same answer.
     */
    static Path fallback(final Map<String, String> env, final int uid, final Path tmp) {
        final Path shared = tmp.resolve(FALLBACK_PREFIX + uid);
        try {
            final Map<String, Object> a = Files.readAttributes(shared, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
            if (((Integer) a.get("mode") & FILE_TYPE_MASK) == FILE_TYPE_DIRECTORY && (Integer) a.get("uid") == uid) {
                return shared;
            }
        } catch (final IOException | UnsupportedOperationException e) {
            return shared; // nothing there yet (the usual case): ensure creates it
        }
        final String home = env.getOrDefault("HOME", System.getProperty("user.home", ""));
        return home.isEmpty() || !Path.of(home).isAbsolute() ? shared
            : Path.of(home).resolve(HOME_FALLBACK_PREFIX + uid);
    }

    /** {@link #resolve(Map, int)} for our own uid. */
    public static Path resolve(final Map<String, String> env) throws IOException {
        return resolve(env, currentUid());
    }

    /**
     * Creates {@code directory} with mode 0700 if it is missing, then checks it is safe to hold
     * our sockets. Returns {@code directory}.
     *
     * @throws UnsafeRuntimeDirectoryException if it is a symlink, not a directory, not ours, open
     *     to group or others, or its parent is missing.
     */
    public static Path ensure(final Path directory) throws IOException {
        final int uid = currentUid();
        try {
            Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            // Ours by construction: set the exact mode the umask may have narrowed.
            Files.setPosixFilePermissions(directory, OWNER_ONLY);
        } catch (final FileAlreadyExistsException ignore) {
            // Exists already (possibly as a symlink or a file): the checks below decide.
        } catch (final NoSuchFileException e) {
            throw new UnsafeRuntimeDirectoryException(directory, UnsafeRuntimeDirectoryException.Reason.MISSING_PARENT,
                "Cannot create the Saccade runtime directory " + directory + ": its parent " + directory.getParent()
                    + " does not exist. $" + XDG_RUNTIME_DIR + " must name an existing directory (your login"
                    + " session creates it); fix or unset " + XDG_RUNTIME_DIR + ".");
        }
        check(directory, uid);
        return directory;
    }

    /** {@link #ensure(Path)} of {@link #resolve(Map)}. */
    public static Path ensure(final Map<String, String> env) throws IOException {
        return ensure(resolve(env));
    }

    /**
     * The effective uid of this process: the owner of {@code /proc/self}. Where there is no
     * {@code /proc} (macOS), the JDK's {@code UnixSystem} (the real uid, the same for a JVM,
     * which is never set-uid).
     */
    public static int currentUid() throws IOException {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (final NoSuchFileException | UnsupportedOperationException e) {
            return (int) new com.sun.security.auth.module.UnixSystem().getUid();
        }
    }

    private static void check(final Path directory, final int uid) throws IOException {
        final Map<String, Object> attributes =
            Files.readAttributes(directory, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
        final int mode = (Integer) attributes.get("mode");
        final int owner = (Integer) attributes.get("uid");
        final int type = mode & FILE_TYPE_MASK;
        if (type == FILE_TYPE_SYMLINK) {
            throw new UnsafeRuntimeDirectoryException(directory, UnsafeRuntimeDirectoryException.Reason.SYMLINK,
                "The Saccade runtime directory " + directory + " is a symbolic link; refusing to follow it"
                    + " (another user could point it anywhere). Remove the link (rm " + directory
                    + ") and start again: it is recreated as a private directory.");
        }
        if (type != FILE_TYPE_DIRECTORY) {
            throw new UnsafeRuntimeDirectoryException(directory, UnsafeRuntimeDirectoryException.Reason.NOT_A_DIRECTORY,
                "The Saccade runtime directory " + directory + " exists but is not a directory. Move it"
                    + " away and start again.");
        }
        if (owner != uid) {
            throw new UnsafeRuntimeDirectoryException(directory, UnsafeRuntimeDirectoryException.Reason.WRONG_OWNER,
                "The Saccade runtime directory " + directory + " is owned by uid " + owner + ", not by us (uid "
                    + uid + "); another user may control it. Remove it as that user or root (rm -r "
                    + directory + "), or set " + XDG_RUNTIME_DIR + " to a directory of your own.");
        }
        if ((mode & GROUP_OTHER_BITS) != 0) {
            throw new UnsafeRuntimeDirectoryException(directory,
                UnsafeRuntimeDirectoryException.Reason.ACCESSIBLE_TO_OTHERS,
                "The Saccade runtime directory " + directory + " has mode 0"
                    + Integer.toOctalString(mode & MODE_PERMISSION_BITS) + "; it must be 0700 (owner only)."
                    + " Check that nothing foreign is inside, then run: chmod 700 " + directory
                    + " (or remove it and let Saccade recreate it).");
        }
    }
}
