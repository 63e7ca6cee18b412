package dev.saccade.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A child's log in the (RAM) runtime directory stays bounded across restarts. */
class PrivateLogTest {
    @Test
    void aLogOverItsBoundIsMovedAsideWhenTheNextChildStarts(@TempDir final Path dir) throws Exception {
        final Path log = PrivateLog.open(dir.resolve("owner.log"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        Files.write(log, new byte[(int) PrivateLog.MAX_BYTES / 2], StandardOpenOption.APPEND);
        PrivateLog.open(log);
        assertEquals(PrivateLog.MAX_BYTES / 2, Files.size(log), "under the bound: appended to");
        Files.write(log, new byte[(int) PrivateLog.MAX_BYTES], StandardOpenOption.APPEND);
        PrivateLog.open(log);
        assertEquals(0, Files.size(log), "over it: a new file");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        final Path previous = dir.resolve("owner.log.1");
        assertTrue(Files.size(previous) > PrivateLog.MAX_BYTES, "the full one kept once");
        Files.write(log, new byte[(int) PrivateLog.MAX_BYTES + 1], StandardOpenOption.APPEND);
        PrivateLog.open(log);
        assertEquals(PrivateLog.MAX_BYTES + 1, Files.size(previous), "and replaced by the next full one");
    }
}
