package dev.saccade.installer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Extracts junixsocket's native library for this machine from its jar in a distribution's
 * {@code lib/} into {@code lib/native/}, once, at package or installation time (cli's
 * {@code src/cds/make-cds}). Otherwise junixsocket copies it from the jar to a new temporary file
 * on every start of every JVM, which costs a one-shot CLI command a SecureRandom, the security
 * providers' start and a 66 KiB write, where a one-shot command is to start quickly; the launcher passes the extracted
 * file with {@code -Dorg.newsclub.net.unix.library.override} when it exists. No library for this
 * system in the jar: nothing is extracted and the launcher goes on as before.
 *
 * <p>Arguments: the distribution's {@code lib} directory. Prints the extracted file; exit 0 also
 * when there is nothing to extract, 1 on an I/O failure.
 */
public final class NativeLibraryExtract {
    private static final String JAR_PREFIX = "junixsocket-native-common-";

    private NativeLibraryExtract() {
    }

    public static void main(final String[] args) {
        if (args.length != 1) {
            System.err.println("usage: NativeLibraryExtract LIB_DIR");
            System.exit(2);
        }
        try {
            final Path extracted = extract(Path.of(args[0]), System.getProperty("os.name"), System.getProperty("os.arch"));
            System.out.println(extracted == null ? "no junixsocket library for this system" : extracted.toString());
        } catch (final IOException e) {
            System.err.println("NativeLibraryExtract: " + e.getMessage());
            System.exit(1);
        }
    }

    /** The extracted library in {@code lib/native}, or null when the jar has none for this system. */
    static Path extract(final Path lib, final String osName, final String osArch) throws IOException {
        final Path jar = jar(lib);
        if (jar == null || !"Linux".equals(osName)) {
            return null;
        }
        // junixsocket's own directory naming: <os.arch>-<os.name>-clang/jni/
        final String prefix = "lib/" + osArch.toLowerCase(Locale.ROOT) + "-Linux-clang/jni/";
        try (JarFile file = new JarFile(jar.toFile())) {
            for (final JarEntry entry : java.util.Collections.list(file.entries())) {
                final String name = entry.getName();
                if (name.startsWith(prefix) && name.endsWith(".so") && !name.endsWith(".nodeps.so")
                    && name.indexOf('/', prefix.length()) < 0) {
                    final Path dir = lib.resolve("native");
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
                    final Path out = dir.resolve(name.substring(prefix.length()));
                    final Path part = dir.resolve(out.getFileName() + ".part");
                    try (InputStream in = file.getInputStream(entry)) {
                        Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
                    }
                    Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("rw-r--r--"));
                    Files.move(part, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    return out;
                }
            }
        }
        return null;
    }

    private static Path jar(final Path lib) throws IOException {
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(lib, JAR_PREFIX + "*.jar")) {
            for (final Path jar : jars) {
                return jar;
            }
        }
        return null;
    }
}
