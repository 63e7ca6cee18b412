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
