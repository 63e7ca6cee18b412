package dev.saccade.installer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A distribution directory laid out like {@code cli/target/saccade} (bin/saccade, lib/*.jar) for
 * tests that install one: the installer only copies files and reads the version from the CLI jar's
 * name, so a small launcher script and placeholder jars are real input for it.
 */
public final class TestDistribution {
    private TestDistribution() {
    }

    /** Creates a distribution of {@code version} in {@code directory}; {@code salt} varies the content. */
    public static Path create(final Path directory, final String version, final String salt) throws IOException {
        final Path bin = Files.createDirectories(directory.resolve("bin"));
        final Path lib = Files.createDirectories(directory.resolve("lib"));
        final Path launcher = bin.resolve("saccade");
        Files.writeString(launcher, "#!/bin/sh\n# test distribution " + version + " " + salt + "\nexit 0\n",
            StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(lib.resolve(Distribution.CLI_JAR_PREFIX + version + Distribution.JAR_SUFFIX),
            "cli " + version + " " + salt, StandardCharsets.UTF_8);
        Files.writeString(lib.resolve("picocli-4.7.7.jar"), "picocli " + salt, StandardCharsets.UTF_8);
        return directory;
    }
}
