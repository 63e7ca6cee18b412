package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.helper.LedgerRelease;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.ipc.link.LinkFileDescriptor;
import dev.saccade.ipc.link.LinkPaths;
import dev.saccade.ipc.link.StaleLinkFiles;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dead owner's link file whose ledger still holds input (its helper was SIGKILLed holding a
 * key, Shift and a button: the X server keeps them down) is released before it is removed: the
 * reclaim that cannot release keeps the file, the one that can releases (checked with
 * XQueryKeymap) while the file is still there, then removes it.
 */
@WithTestDesktop
class StaleLedgerReleaseTest {
    private static final int KEY_A = 0x04;

    @Test
    @Timeout(60)
    void aDeadOwnersHeldInputIsReleasedBeforeItsLinkFileIsRemoved(final TestDesktop desktop, @TempDir final Path dir)
        throws Exception {
        final Path runtime = Files.createDirectory(dir.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path shm = Files.createDirectory(dir.resolve("shm"));
        final int uid = RuntimeDirectory.currentUid();
        final long deadOwner = deadPid();
        final Path link = LinkPaths.linkFile(runtime, uid, deadOwner);
        try (RandomAccessFile file = new RandomAccessFile(link.toFile(), "rw")) {
            file.setLength(64 * 1024);
            file.seek(LinkFileDescriptor.MAGIC_OFFSET);
            file.writeLong(Long.reverseBytes(LinkFileDescriptor.MAGIC));
        }
        Files.setPosixFilePermissions(link, PosixFilePermissions.fromString("rw-------"));
        final Process helper = startHolder(desktop, link, LinkFileDescriptor.LEDGER_OFFSET);
        try (XTestBackend observer = XTestBackend.open(desktop.display())) {
            final String held = awaitHeld(helper);
            helper.destroyForcibly();
            assertTrue(helper.waitFor(10, TimeUnit.SECONDS), "the helper is killed");
            final byte[] keys = new byte[32];
            final int keyA = observer.keyCodeOf(KEY_A);
            observer.queryKeymap(keys);
            assertTrue(DesktopTool.keyDown(keys, keyA), "X keeps the dead helper's key down: " + held);

            assertEquals(0, StaleLinkFiles.reclaim(shm, runtime, uid, StaleLinkFiles::isAlive),
                "a reclaim that cannot release keeps the file");
            assertTrue(Files.exists(link, LinkOption.NOFOLLOW_LINKS));
            observer.queryKeymap(keys);
            assertTrue(DesktopTool.keyDown(keys, keyA), "still held");

            final boolean[] existedWhileReleasing = {false};
            final int removed;
            try (XTestBackend releaser = XTestBackend.open(desktop.display())) {
                removed = StaleLinkFiles.reclaim(shm, runtime, uid, StaleLinkFiles::isAlive, ledger -> {
                    existedWhileReleasing[0] = Files.exists(link, LinkOption.NOFOLLOW_LINKS);
                    return LedgerRelease.releaseAll(ledger, releaser) == ResultCode.PLATFORM_OK;
                });
            }
            assertEquals(1, removed);
            assertTrue(existedWhileReleasing[0], "released while the ledger was still there");
            assertFalse(Files.exists(link, LinkOption.NOFOLLOW_LINKS), "then removed");
            observer.queryKeymap(keys);
            assertTrue(DesktopTool.noKeyDown(keys), "nothing held any more");
        } finally {
            helper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static long deadPid() throws Exception {
        final Process p = new ProcessBuilder("true").start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return p.pid();
    }

    private static Process startHolder(final TestDesktop desktop, final Path file, final long offset) throws Exception {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.startsWith("-Dchronicle") || argument.startsWith("-Dorg.slf4j")) {
                command.add(argument);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LedgerHolderMain.class.getName(),
            desktop.display(), file.toString(), Long.toString(offset)));
        return desktop.configure(new ProcessBuilder(command)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String awaitHeld(final Process helper) throws Exception {
        final BufferedReader in = new BufferedReader(new InputStreamReader(helper.getInputStream(), StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("HELD")) {
                return line;
            }
        }
        throw new AssertionError("the holder exited " + helper.waitFor() + " without HELD");
    }
}
