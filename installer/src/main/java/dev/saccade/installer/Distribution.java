package dev.saccade.installer;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * A runnable Saccade distribution as {@code mvn package} lays it out in
 * {@code cli/target/saccade}: {@code bin/saccade} (the launcher) and {@code lib/*.jar}. Its
 * version is the one in the name of its {@code lib/saccade-cli-<version>.jar}, which the build
 * names from the POM, so it needs no JVM started to learn it.
 */
public final class Distribution {
    /** The launcher inside a distribution. */
    public static final String LAUNCHER = "bin/saccade";
    /** The CLI jar's name is this prefix, the version and {@link #JAR_SUFFIX}. */
    public static final String CLI_JAR_PREFIX = "saccade-cli-";
    public static final String JAR_SUFFIX = ".jar";

    private final Path directory;
    private final String version;

    private Distribution(final Path directory, final String version) {
        this.directory = directory;
        this.version = version;
    }

    /** Checks that {@code directory} is a complete distribution and reads its version. */
    public static Distribution at(final Path directory) throws InstallException {
        final Path dir;
        try {
            dir = directory.toRealPath(); // the copy walks it without following links
        } catch (final IOException e) {
            throw new InstallException(InstallException.Kind.DISTRIBUTION, "no distribution at " + directory + ": " + e, e);
        }
        final Path launcher = dir.resolve(LAUNCHER);
        if (!Files.isRegularFile(launcher) || !Files.isExecutable(launcher)) {
            throw new InstallException(InstallException.Kind.DISTRIBUTION,
                dir + " is not a Saccade distribution: no executable " + LAUNCHER);
        }
        final Path lib = dir.resolve("lib");
        if (!Files.isDirectory(lib, LinkOption.NOFOLLOW_LINKS)) {
            throw new InstallException(InstallException.Kind.DISTRIBUTION,
                dir + " is not a Saccade distribution: no lib directory");
        }
        String version = null;
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(lib, CLI_JAR_PREFIX + "*" + JAR_SUFFIX)) {
            for (final Path jar : jars) {
                final String name = jar.getFileName().toString();
                final String candidate = name.substring(CLI_JAR_PREFIX.length(), name.length() - JAR_SUFFIX.length());
                if (version != null) {
                    throw new InstallException(InstallException.Kind.DISTRIBUTION,
                        dir + " holds two CLI jars (versions " + version + " and " + candidate + ")");
                }
                version = candidate;
            }
        } catch (final IOException e) {
            throw new InstallException(InstallException.Kind.DISTRIBUTION, "cannot read " + lib + ": " + e, e);
        }
        if (version == null || !isSafeVersion(version)) {
            throw new InstallException(InstallException.Kind.DISTRIBUTION,
                dir + " is not a Saccade distribution: no lib/" + CLI_JAR_PREFIX + "<version>" + JAR_SUFFIX);
        }
        return new Distribution(dir, version);
    }

    /** A version becomes a directory name: no separators, no dot-only names, no leading dot. */
    static boolean isSafeVersion(final String version) {
        return version.matches("[0-9A-Za-z][0-9A-Za-z._+-]{0,63}");
    }

    public Path directory() {
        return directory;
    }

    public String version() {
        return version;
    }
}
