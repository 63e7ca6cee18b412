package dev.saccade.supervisor;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An installed Saccade: a directory laid out like the build's {@code cli/target/saccade}, with
 * the launcher {@code bin/saccade} and the jars in {@code lib/}. An upgrade names a new one; the
 * owner is started through its launcher (which execs Java, so the child's pid is the JVM's),
 * the helper straight from its jars.
 */
final class Distribution {
    static final String LAUNCHER = "bin/saccade";
    static final String LIB = "lib";
    private static final String CLI_JAR_PREFIX = "saccade-cli-";

    private final Path home;
    private final String version;

    private Distribution(final Path home, final String version) {
        this.home = home;
        this.version = version;
    }

    /**
     * Checks {@code home} is an absolute directory with an executable launcher and a cli jar.
     *
     * @throws IOException naming what is missing.
     */
    static Distribution at(final Path home) throws IOException {
        if (!home.isAbsolute()) {
            throw new IOException("distribution path must be absolute: " + home);
        }
        final Path launcher = home.resolve(LAUNCHER);
        if (!Files.isRegularFile(launcher) || !Files.isExecutable(launcher)) {
            throw new IOException("not a Saccade distribution: no executable " + launcher);
        }
        String version = null;
        final File[] jars = home.resolve(LIB).toFile().listFiles();
        if (jars != null) {
            for (final File jar : jars) {
                final String name = jar.getName();
                if (name.startsWith(CLI_JAR_PREFIX) && name.endsWith(".jar")) {
                    version = name.substring(CLI_JAR_PREFIX.length(), name.length() - ".jar".length());
                }
            }
        }
        if (version == null) {
            throw new IOException("not a Saccade distribution: no " + CLI_JAR_PREFIX + "*.jar in " + home.resolve(LIB));
        }
        return new Distribution(home, version);
    }

    /**
     * The distribution this JVM runs from: the parent of the {@code lib} directory on its class
     * path ({@code bin/saccade} puts {@code lib/*} there), or null when run from a build tree.
     */
    static Path ofThisJvm() {
        for (final String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            final Path path = Path.of(entry.endsWith("*") ? entry.substring(0, entry.length() - 1) + "x" : entry);
            final Path lib = path.getParent();
            if (lib != null && lib.getFileName() != null && LIB.equals(lib.getFileName().toString())
                && lib.getParent() != null && Files.isExecutable(lib.getParent().resolve(LAUNCHER))) {
                return lib.getParent().toAbsolutePath();
            }
        }
        return null;
    }

    Path home() {
        return home;
    }

    Path launcher() {
        return home.resolve(LAUNCHER);
    }

    /** The class path of all its jars, in the JVM's wildcard form. */
    String classpath() {
        return home.resolve(LIB) + File.separator + "*";
    }

    String version() {
        return version;
    }

    @Override
    public String toString() {
        return home + " (" + version + ")";
    }
}
