package dev.saccade.installer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchAgentPlistTest {
    private static Map<String, Object> plistFor(final Path home) throws Exception {
        final InstallLayout layout = InstallLayout.of(Platform.MACOS, home, false, Map.of());
        return LoginItemChecks.plist(new LaunchAgentPlist(layout, "1.2.3").bytes());
    }

    @Test
    void plistParsesAndHasEveryRequiredKey() throws Exception {
        final Map<String, Object> plist = plistFor(Path.of("/Users/ada"));

        assertEquals(InstallLayout.LAUNCH_AGENT_LABEL, plist.get("Label"));
        assertEquals(List.of("/Users/ada/Library/Application Support/Saccade/current/bin/saccade", "supervisor", "run"),
            plist.get("ProgramArguments"));
        assertEquals(Boolean.TRUE, plist.get("RunAtLoad"));
        assertEquals(Map.of("SuccessfulExit", Boolean.FALSE, "Crashed", Boolean.TRUE), plist.get("KeepAlive"));
        assertEquals((long) LaunchAgentPlist.THROTTLE_INTERVAL_S, plist.get("ThrottleInterval"));
        assertEquals("/Users/ada/Library/Logs/Saccade/supervisor.log", plist.get("StandardOutPath"));
        assertEquals("/Users/ada/Library/Logs/Saccade/supervisor.log", plist.get("StandardErrorPath"));
        assertEquals("Aqua", plist.get("LimitLoadToSessionType"));
    }

    /**
     * A real plist reader as well as our DOM walk: CPython's plistlib (python3 is in
     * scripts/install-deps), which rejects what launchd's parser would (wrong root, a key without
     * a value, a bad integer), reads the same dict.
     */
    @Test
    void pythonsPlistlibReadsTheSameDict() throws Exception {
        final InstallLayout layout = InstallLayout.of(Platform.MACOS, Path.of("/Users/R&D <lab>"), false, Map.of());
        final byte[] bytes = new LaunchAgentPlist(layout, "1.2.3").bytes();
        final Process python = new ProcessBuilder("python3", "-c", String.join("\n",
            "import plistlib, sys",
            "def r(v):",
            "    if isinstance(v, bool): return 'true' if v else 'false'",
            "    if isinstance(v, dict): return '{' + ','.join(k + '=' + r(v[k]) for k in sorted(v)) + '}'",
            "    if isinstance(v, list): return '[' + ','.join(r(x) for x in v) + ']'",
            "    return str(v)",
            "d = plistlib.loads(sys.stdin.buffer.read())",
            "sys.stdout.write(''.join(k + '\\t' + r(d[k]) + '\\n' for k in sorted(d)))"))
            .redirectErrorStream(true).start();
        try (var in = python.getOutputStream()) {
            in.write(bytes);
        }
        final String read = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, python.waitFor(), read);
        final StringBuilder ours = new StringBuilder();
        new java.util.TreeMap<>(LoginItemChecks.plist(bytes))
            .forEach((k, v) -> ours.append(k).append('\t').append(render(v)).append('\n'));
        assertEquals(ours.toString(), read);

        final Process broken = new ProcessBuilder("python3", "-c", "import plistlib, sys; plistlib.loads(sys.stdin.buffer.read())")
            .redirectErrorStream(true).start();
        try (var in = broken.getOutputStream()) {
            in.write("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>Label</key></dict></plist>"
                .getBytes(StandardCharsets.UTF_8));
        }
        final String refusal = new String(broken.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(broken.waitFor() != 0 && refusal.contains("missing value for key 'Label'"),
            "plistlib refuses a key without a value (the check can fail): " + refusal);
    }

    /** Our parsed values spelled as the Python side spells plistlib's. */
    private static String render(final Object v) {
        if (v instanceof Map) {
            final StringBuilder b = new StringBuilder("{");
            new java.util.TreeMap<>((Map<?, ?>) v).forEach((k, x) -> b.append(b.length() > 1 ? "," : "").append(k)
                .append('=').append(render(x)));
            return b.append('}').toString();
        }
        if (v instanceof List) {
            final StringBuilder b = new StringBuilder("[");
            for (final Object x : (List<?>) v) {
                b.append(b.length() > 1 ? "," : "").append(render(x));
            }
            return b.append(']').toString();
        }
        return String.valueOf(v);
    }

    @Test
    void pathWithXmlSpecialCharactersSurvivesEscaping() throws Exception {
        final Map<String, Object> plist = plistFor(Path.of("/Users/R&D <lab>"));

        assertEquals("/Users/R&D <lab>/Library/Application Support/Saccade/current/bin/saccade",
            ((List<?>) plist.get("ProgramArguments")).get(0));
    }

    @Test
    void printedCommandsLeaveTheUidToTheShellAndQuoteAPathWithBlanks() {
        final InstallLayout layout = InstallLayout.of(Platform.MACOS, Path.of("/Users/ada"), false, Map.of());
        final LaunchAgentPlist item = new LaunchAgentPlist(layout, "1.2.3");

        assertEquals("launchctl bootstrap \"gui/$(id -u)\" /Users/ada/Library/LaunchAgents/dev.saccade.supervisor.plist",
            item.commandLine(item.enableCommand()));
        assertEquals("launchctl bootout \"gui/$(id -u)/dev.saccade.supervisor\"", item.commandLine(item.disableCommand()));
        assertEquals("ls '/Users/a b' 'it'\\''s'", item.commandLine(List.of("ls", "/Users/a b", "it's")));
    }

    @Test
    void checkRejectsAPlistWithAKeyWithoutValue() {
        final String broken = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>Label</key></dict></plist>";

        final AssertionError e = assertThrows(AssertionError.class,
            () -> LoginItemChecks.plist(broken.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("key and no value"), e::getMessage);
    }
}
