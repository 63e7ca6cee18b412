package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The helper's classpath: only what it may load, from a distribution's `lib/*` or a build. */
class ChildJvmTest {
    private static final List<String> LEFT_OUT = List.of(
        "saccade-owner-service", "saccade-cli", "dbus-java", "picocli", "owner-service/target/classes", "cli/target/classes",
        "test-classes");

    @Test
    void aDistributionsWildcardIsExpandedAndOwnerJarsLeftOut(@TempDir final Path dir) throws Exception {
        final Path lib = Files.createDirectories(dir.resolve("cli/target/saccade/lib"));
        for (final String jar : List.of("saccade-protocol-0.1.jar", "saccade-input-helper-0.1.jar", "jna-5.19.1.jar",
            "saccade-owner-service-0.1.jar", "saccade-cli-0.1.jar", "dbus-java-core-5.2.2.jar", "picocli-4.7.7.jar")) {
            Files.createFile(lib.resolve(jar));
        }
        final String cp = ChildJvm.helperClasspath(lib + File.separator + "*", LEFT_OUT);
        final List<String> names = java.util.Arrays.stream(cp.split(File.pathSeparator))
            .map(p -> Path.of(p).getFileName().toString()).sorted().toList();
        assertEquals(List.of("jna-5.19.1.jar", "saccade-input-helper-0.1.jar", "saccade-protocol-0.1.jar"), names);
    }

    @Test
    void buildDirectoriesOfOwnerModulesAreLeftOut() {
        final String cp = String.join(File.pathSeparator, "/w/protocol/target/classes", "/w/input-helper/target/classes",
            "/w/owner-service/target/classes", "/w/cli/target/classes", "/w/cli/target/test-classes");
        assertEquals(String.join(File.pathSeparator, "/w/protocol/target/classes", "/w/input-helper/target/classes"),
            ChildJvm.helperClasspath(cp, LEFT_OUT));
        assertTrue(ChildJvm.jvmFlags().stream().anyMatch(f -> f.startsWith("--add-opens")),
            "the Chronicle flags travel to the helper");
    }
}
