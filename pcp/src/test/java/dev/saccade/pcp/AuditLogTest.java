package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditLogTest {
    @TempDir
    Path dir;

    @Test
    void appendsOneJsonObjectPerLineInAnOwnerOnlyFileAndRotatesBySize() throws Exception {
        final Path file = dir.resolve(AuditLog.FILE_NAME);
        Files.writeString(file, "");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        try (AuditLog log = new AuditLog(file, 4096)) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), "narrowed");
            for (int i = 0; i < 100; i++) {
                log.append(JsonTree.object("event", "invoke.capability", "n", (long) i, "outcome", "ok"));
            }
            assertEquals(100, log.records());
            assertEquals(0, log.failures());
        }
        final Path rotated = dir.resolve(AuditLog.FILE_NAME + ".1");
        assertTrue(Files.size(file) <= 4096 && Files.size(rotated) <= 4096, "bounded by size");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(rotated)));
        final List<String> lines = Files.readAllLines(file);
        final Map<?, ?> last = (Map<?, ?>) JsonTree.parse(lines.get(lines.size() - 1));
        assertEquals(99L, last.get("n"));
        assertTrue(last.get("ts_ms") instanceof Long);
        final Map<?, ?> firstKept = (Map<?, ?>) JsonTree.parse(Files.readAllLines(rotated).get(0));
        assertEquals((Long) last.get("n") - lines.size() - Files.readAllLines(rotated).size() + 1, firstKept.get("n"),
            "consecutive across the rotation");
    }

    @Test
    void keepsFiveRotationsAndBoundsWhatAPeerSends() throws Exception {
        final Path file = dir.resolve(AuditLog.FILE_NAME);
        try (AuditLog log = new AuditLog(file, 2048)) {
            final String huge = "x".repeat(1 << 20);
            for (int i = 0; i < 200; i++) {
                log.append(JsonTree.object("event", "invoke.capability", "n", (long) i, "reason", huge));
            }
            assertEquals(0, log.failures());
            for (int n = 1; n <= AuditLog.ROTATIONS; n++) {
                assertTrue(Files.exists(log.rotated(n)), "rotation " + n + " kept");
                assertTrue(Files.size(log.rotated(n)) <= 2048, "rotation " + n + " bounded");
            }
            assertTrue(!Files.exists(log.rotated(AuditLog.ROTATIONS + 1)), "no more than five rotations");
        }
        final List<String> lines = Files.readAllLines(file);
        final Map<?, ?> last = (Map<?, ?>) JsonTree.parse(lines.get(lines.size() - 1));
        assertEquals(199L, last.get("n"), "the last record is whole");
        assertEquals(AuditLog.MAX_STRING_CHARS + 1, ((String) last.get("reason")).length(), "a 1 MiB reason is cut");
        assertTrue(lines.size() >= 2, "several records per file: " + lines.size());
    }
}
