package dev.saccade.demodesktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A desktop's directory with file systems mounted inside (as xdg-document-portal mounts one at
 * {@code run/doc}): deleting it unmounts them and never deletes through them. The mounts are real
 * ones, so the desktop cases need root (CI runs as root); the mountinfo parsing needs nothing.
 */
class SessionDirectoryMountsTest {
    @Test
    void mountInfoLinesBelowTheRootAreFoundDeepestFirstWithTheirEscapesUndone() {
        final String info = String.join("\n",
            "22 1 0:21 / / rw - overlay overlay rw",
            "40 22 0:40 / /tmp/saccade-desktop-1/run rw,nosuid - tmpfs none rw",
            "41 40 0:41 / /tmp/saccade-desktop-1/run/doc rw,nosuid,nodev shared:9 - fuse.portal portal rw",
            "42 22 0:42 / /tmp/saccade-desktop-1/home/my\\040files rw - tmpfs none rw",
            "43 22 0:43 / /tmp/saccade-desktop-10 rw - tmpfs none rw",
            "44 22 0:44 / /tmp/saccade-desktop-1 rw - tmpfs none rw",
            "garbage");
        final List<Mounts.Mount> found = Mounts.parse(info, Path.of("/tmp/saccade-desktop-1"));
        assertEquals(List.of(new Mounts.Mount(Path.of("/tmp/saccade-desktop-1/run/doc"), "fuse.portal"),
            new Mounts.Mount(Path.of("/tmp/saccade-desktop-1/home/my files"), "tmpfs"),
            new Mounts.Mount(Path.of("/tmp/saccade-desktop-1/run"), "tmpfs")), found);
    }

    @Test
    void deletingUnmountsWhatIsMountedInsideAndLeavesTheMountedFilesAlone(@TempDir final Path outside) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting needs root (CI runs as root)");
        final Path kept = Files.writeString(outside.resolve("kept.txt"), "not the desktop's");
        final SessionDirectory dir = SessionDirectory.create(Path.of("/tmp"));
        final Path doc = Files.createDirectory(dir.runtime().resolve("doc"));
        final Path bound = Files.createDirectory(dir.home().resolve("bound"));
        try {
            run("mount", "-t", "tmpfs", "none", doc.toString());
            Files.writeString(doc.resolve("inside.txt"), "in the mounted file system");
            run("mount", "--bind", outside.toString(), bound.toString());
            assertEquals(2, Mounts.under(dir.root()).size(), "two mounts inside");

            dir.delete();

            assertFalse(Files.exists(dir.root()), "the directory is gone");
            assertTrue(Mounts.under(dir.root()).isEmpty(), "nothing stays mounted there");
            assertEquals("not the desktop's", Files.readString(kept), "the bound directory's file was not deleted");
        } finally {
            for (final Mounts.Mount m : Mounts.under(dir.root())) {
                run("umount", "-l", m.point().toString());
            }
        }
    }

    private static void run(final String... command) throws Exception {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", command) + ": " + out);
    }
}
