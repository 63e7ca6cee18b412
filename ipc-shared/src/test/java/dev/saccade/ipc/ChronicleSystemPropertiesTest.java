package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chronicle's {@code Jvm} loads {@code system.properties} from the working directory (or its
 * parent) into the system properties unless {@code -Dsystem.properties} names another file: any
 * {@code saccade} command run in a directory holding one would take its settings. Our JVM flags
 * (the root pom's {@code saccade.jvm.flags}, which the launcher and every child JVM use) point it
 * at {@code /dev/null}.
 */
class ChronicleSystemPropertiesTest {
    /** The child: initialise Chronicle's Jvm, print what a stray file could have set. */
    public static final class Probe {
        public static void main(final String[] args) {
            net.openhft.chronicle.core.Jvm.init();
            System.out.println("leak=" + System.getProperty("saccade.test.leak"));
        }
    }

    @Test
    @Timeout(60)
    void aSystemPropertiesFileInTheWorkingDirectoryIsNotRead(@TempDir final Path dir) throws Exception {
        Files.writeString(dir.resolve("system.properties"), "saccade.test.leak=yes\n");
        assertEquals("leak=null", run(dir, flags()), "with our flags");
        final List<String> without = new ArrayList<>(flags());
        without.removeIf(f -> f.startsWith("-Dsystem.properties="));
        assertEquals("leak=yes", run(dir, without), "the file is read without the flag (the test can fail)");
    }

    private static List<String> flags() {
        final List<String> flags = new ArrayList<>();
        for (final String flag : System.getProperty("saccade.jvm.flags", "").trim().split("\\s+")) {
            if (!flag.isEmpty()) {
                flags.add(flag);
            }
        }
        assertTrue(flags.contains("-Dsystem.properties=/dev/null"), "saccade.jvm.flags: " + flags);
        return flags;
    }

    private static String run(final Path dir, final List<String> flags) throws Exception {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Probe.class.getName());
        final Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), out);
        return out.lines().filter(l -> l.startsWith("leak=")).findFirst().orElse(out);
    }
}
