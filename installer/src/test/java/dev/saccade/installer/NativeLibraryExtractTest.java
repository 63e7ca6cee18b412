package dev.saccade.installer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** junixsocket's library for this system out of a jar laid out as junixsocket's is; none for another system. */
class NativeLibraryExtractTest {
    @TempDir
    Path lib;

    @Test
    void theLibraryOfThisArchitectureIsExtractedReadableAndTheOthersAreNot() throws Exception {
        jar("lib/amd64-Linux-clang/jni/libjunixsocket-native-9.9.so", "amd64",
            "lib/amd64-Linux-clang/jni/libjunixsocket-native-9.9.nodeps.so", "amd64 nodeps",
            "lib/aarch64-Linux-clang/jni/libjunixsocket-native-9.9.so", "aarch64");

        final Path amd64 = NativeLibraryExtract.extract(lib, "Linux", "amd64");
        assertEquals(lib.resolve("native/libjunixsocket-native-9.9.so"), amd64);
        assertArrayEquals("amd64".getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(amd64));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(amd64)));

        final Path aarch64 = NativeLibraryExtract.extract(lib, "Linux", "aarch64");
        assertArrayEquals("aarch64".getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(aarch64));
        assertNull(NativeLibraryExtract.extract(lib, "Linux", "sparc"), "no library for that architecture");
        assertNull(NativeLibraryExtract.extract(lib, "Mac OS X", "aarch64"), "only Linux layouts are read");
    }

    @Test
    void withoutTheJarNothingIsExtracted() throws Exception {
        assertNull(NativeLibraryExtract.extract(lib, "Linux", "amd64"));
    }

    private void jar(final String... namesAndContents) throws Exception {
        try (OutputStream file = Files.newOutputStream(lib.resolve("junixsocket-native-common-9.9.jar"));
             JarOutputStream jar = new JarOutputStream(file)) {
            for (int i = 0; i < namesAndContents.length; i += 2) {
                jar.putNextEntry(new JarEntry(namesAndContents[i]));
                jar.write(namesAndContents[i + 1].getBytes(StandardCharsets.US_ASCII));
                jar.closeEntry();
            }
        }
    }
}
