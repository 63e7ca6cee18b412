package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Test tooling never ships: the jars of the packaged distribution ({@code lib/}) and of the
 * Debian package built from it hold no test desktop extension, test fixtures, JUnit or test-jar.
 * The demo desktop that {@code saccade up} starts ships as {@code saccade-demo-desktop}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistributionContentsIT {
    private static final Path DIST = Path.of(System.getProperty("saccade.dist.dir"));
    private static final Path DEB = DIST.resolveSibling(
        "saccade_" + System.getProperty("saccade.project.version") + "_all.deb");
    /** Jar names of test code: ours, JUnit's and its companions, and any Maven test-jar. */
    private static final Pattern TEST_JAR = Pattern.compile(
        "saccade-test-desktop-.*|saccade-test-support-.*|saccade-system-tests-.*|junit-.*|opentest4j-.*"
            + "|apiguardian-.*|.*-tests\\.jar");

    @Test
    void theDistributionShipsNoTestJar() throws IOException {
        final List<String> jars;
        try (Stream<Path> files = Files.list(DIST.resolve("lib"))) {
            jars = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar")).sorted().toList();
        }
        assertTrue(jars.stream().anyMatch(n -> n.startsWith("saccade-cli-")), "no cli jar in " + jars);
        assertTrue(jars.stream().anyMatch(n -> n.startsWith("saccade-demo-desktop-")), "saccade up needs " + jars);
        assertEquals(List.of(), testJars(jars), "test jars in " + DIST.resolve("lib"));
    }

    @Test
    void theDebianPackageShipsNoTestJar() throws Exception {
        if (!Files.isRegularFile(DEB)) {
            // build-deb builds nothing where dpkg-deb is missing; the lib/ test above still holds
            assertTrue(Files.notExists(DEB), DEB.toString());
            return;
        }
        final Process listing = new ProcessBuilder("dpkg-deb", "--contents", DEB.toString())
            .redirectErrorStream(true).start();
        final String out = new String(listing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(listing.waitFor(30, TimeUnit.SECONDS), "dpkg-deb --contents did not finish");
        assertEquals(0, listing.exitValue(), out);
        final List<String> jars = new ArrayList<>();
        for (final String line : out.split("\n")) {
            final int slash = line.lastIndexOf('/');
            if (line.endsWith(".jar") && slash >= 0) {
                jars.add(line.substring(slash + 1));
            }
        }
        assertTrue(jars.stream().anyMatch(n -> n.startsWith("saccade-cli-")), "no cli jar in " + out);
        assertEquals(List.of(), testJars(jars), "test jars in " + DEB);
    }

    private static List<String> testJars(final List<String> jars) {
        return jars.stream().filter(n -> TEST_JAR.matcher(n).matches()).toList();
    }
}
