package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeDirectoryTest {
    private static final int OTHER_UID = 4242;

    @TempDir
    Path xdg;

    @Test
    void resolvesInsideXdgRuntimeDir() {
        assertEquals(Path.of("/run/user/1000/saccade"),
            RuntimeDirectory.resolve(Map.of("XDG_RUNTIME_DIR", "/run/user/1000"), 1000));
    }

    @Test
    void fallsBackToTmpWithUidWhenXdgRuntimeDirIsUnsetEmptyOrRelative() {
        assertEquals(Path.of("/tmp/saccade-1000"), RuntimeDirectory.resolve(Map.of(), 1000));
        assertEquals(Path.of("/tmp/saccade-7"), RuntimeDirectory.resolve(Map.of("XDG_RUNTIME_DIR", ""), 7));
        assertEquals(Path.of("/tmp/saccade-7"), RuntimeDirectory.resolve(Map.of("XDG_RUNTIME_DIR", "run/me"), 7));
    }

    @Test
    void readsOurUidFromProcSelf() throws Exception {
        assertEquals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"), RuntimeDirectory.currentUid());
    }

    @Test
    void createsDirectoryOwnedByUsWithMode0700AndAcceptsItAgain() throws Exception {
        final Path run = RuntimeDirectory.ensure(Map.of("XDG_RUNTIME_DIR", xdg.toString()));

        assertEquals(xdg.resolve("saccade"), run);
        assertEquals(0700, mode(run));
        assertEquals(RuntimeDirectory.currentUid(), Files.getAttribute(run, "unix:uid", LinkOption.NOFOLLOW_LINKS));
        assertEquals(run, RuntimeDirectory.ensure(run), "an existing safe directory is accepted as is");
    }

    @Test
    void refusesDirectoryOpenToGroupAndOthersWithoutRepairingIt() throws Exception {
        final Path run = Files.createDirectory(xdg.resolve("saccade"));
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxr-xr-x"));

        final UnsafeRuntimeDirectoryException e =
            assertThrows(UnsafeRuntimeDirectoryException.class, () -> RuntimeDirectory.ensure(run));

        assertEquals(UnsafeRuntimeDirectoryException.Reason.ACCESSIBLE_TO_OTHERS, e.reason());
        assertTrue(e.getMessage().contains("0755") && e.getMessage().contains("chmod 700 " + run), e.getMessage());
        assertEquals(0755, mode(run), "a pre-existing directory is refused, not silently tightened");
    }

    @Test
    void refusesDirectoryOwnedByAnotherUid() throws Exception {
        final Path run = Files.createDirectory(xdg.resolve("saccade"));
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwx------"));
        Files.setAttribute(run, "unix:uid", OTHER_UID); // we run as root: chown works

        final UnsafeRuntimeDirectoryException e =
            assertThrows(UnsafeRuntimeDirectoryException.class, () -> RuntimeDirectory.ensure(run));

        assertEquals(UnsafeRuntimeDirectoryException.Reason.WRONG_OWNER, e.reason());
        assertTrue(e.getMessage().contains("uid " + OTHER_UID), e.getMessage());
    }

    @Test
    void refusesSymbolicLinkEvenToASafeDirectory() throws Exception {
        final Path target = Files.createDirectory(xdg.resolve("elsewhere"));
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
        final Path run = Files.createSymbolicLink(xdg.resolve("saccade"), target);

        final UnsafeRuntimeDirectoryException e =
            assertThrows(UnsafeRuntimeDirectoryException.class, () -> RuntimeDirectory.ensure(run));

        assertEquals(UnsafeRuntimeDirectoryException.Reason.SYMLINK, e.reason());
        assertTrue(Files.isSymbolicLink(run));
    }

    @Test
    void refusesRegularFileAtThePath() throws Exception {
        final Path run = Files.createFile(xdg.resolve("saccade"));

        assertEquals(UnsafeRuntimeDirectoryException.Reason.NOT_A_DIRECTORY,
            assertThrows(UnsafeRuntimeDirectoryException.class, () -> RuntimeDirectory.ensure(run)).reason());
    }

    @Test
    void refusesToCreateMissingXdgRuntimeDir() {
        final Path missing = xdg.resolve("no-such-session");

        final UnsafeRuntimeDirectoryException e = assertThrows(UnsafeRuntimeDirectoryException.class,
            () -> RuntimeDirectory.ensure(Map.of("XDG_RUNTIME_DIR", missing.toString())));

        assertEquals(UnsafeRuntimeDirectoryException.Reason.MISSING_PARENT, e.reason());
        assertTrue(e.getMessage().contains("XDG_RUNTIME_DIR"), e.getMessage());
        assertFalse(Files.exists(missing), "the session's directory is never created by us");
    }

    @Test
    void namesTheThreeSockets() {
        assertEquals("saccade-agent-v1.sock", RuntimeDirectory.AGENT_SOCKET_NAME);
        assertEquals("saccade-pcp-v1.sock", RuntimeDirectory.PCP_SOCKET_NAME);
        assertEquals("saccade-supervisor-v1.sock", RuntimeDirectory.SUPERVISOR_SOCKET_NAME);
    }

    private static int mode(final Path path) throws Exception {
        return (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0777;
    }

    /**
     * Another user creates {@code /tmp/saccade-<uid>} first (here a private stand-in for /tmp):
     * the name is passed over for one in our home, which is then created 0700 and used, instead
     * of refusing to start for good.
     */
    @Test
    void aFallbackNameAnotherUserTookFirstIsPassedOver(@TempDir final Path dir) throws Exception {
        final int uid = RuntimeDirectory.currentUid();
        final Path tmp = Files.createDirectory(dir.resolve("tmp"));
        final Path home = Files.createDirectory(dir.resolve("home"));
        final Map<String, String> env = Map.of("HOME", home.toString());
        assertEquals(tmp.resolve("saccade-" + uid), RuntimeDirectory.fallback(env, uid, tmp), "nothing there yet");
        final Path squatted = Files.createDirectory(tmp.resolve("saccade-" + uid));
        assertEquals(squatted, RuntimeDirectory.fallback(env, uid, tmp), "our own directory");
        Files.delete(squatted);
        Files.createFile(tmp.resolve("saccade-" + uid)); // a file of ours where a directory belongs
        assertEquals(home.resolve(".saccade-run-" + uid), RuntimeDirectory.fallback(env, uid, tmp));
        final Path run = RuntimeDirectory.ensure(RuntimeDirectory.fallback(env, uid, tmp));
        assertEquals("rwx------", PosixFilePermissions.toString(
            Files.getPosixFilePermissions(run)));
        if (uid == 0) { // as root (CI) the squatter can be another user, as in life
            Files.delete(tmp.resolve("saccade-" + uid));
            final Path foreign = Files.createDirectory(tmp.resolve("saccade-" + uid));
            Files.setAttribute(foreign, "unix:uid", 65534);
            assertEquals(home.resolve(".saccade-run-" + uid), RuntimeDirectory.fallback(env, uid, tmp));
        }
    }
}
