package dev.saccade.installer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.xml.sax.SAXParseException;

class LogonTaskXmlTest {
    private static final Map<String, String> WINDOWS_ENV = Map.of("USERNAME", "ada", "USERDOMAIN", "LAB",
        "LOCALAPPDATA", "C:\\Users\\ada\\AppData\\Local");

    private static LogonTaskXml task() {
        final InstallLayout layout = InstallLayout.of(Platform.WINDOWS, Path.of("/home/ada"), false, Map.of());
        return new LogonTaskXml(layout, "1.2.3", WINDOWS_ENV);
    }

    @Test
    void taskIsUtf16WithByteOrderMarkAndValidAgainstTheSchemaSubset() throws Exception {
        final byte[] bytes = task().bytes();
        assertArrayEquals(new byte[] {(byte) 0xFF, (byte) 0xFE}, Arrays.copyOf(bytes, 2));

        final Document doc = LoginItemChecks.taskXml(bytes);

        assertEquals(LogonTaskXml.NAMESPACE, doc.getDocumentElement().getNamespaceURI());
        assertEquals("Task", doc.getDocumentElement().getLocalName());
        assertEquals("LAB\\ada", LoginItemChecks.text(doc, "Triggers/LogonTrigger/UserId"));
        assertEquals("true", LoginItemChecks.text(doc, "Triggers/LogonTrigger/Enabled"));
        assertEquals("InteractiveToken", LoginItemChecks.text(doc, "Principals/Principal/LogonType"));
        assertEquals("IgnoreNew", LoginItemChecks.text(doc, "Settings/MultipleInstancesPolicy"));
        assertEquals("false", LoginItemChecks.text(doc, "Settings/DisallowStartIfOnBatteries"));
        assertEquals("false", LoginItemChecks.text(doc, "Settings/StopIfGoingOnBatteries"));
        assertEquals("PT0S", LoginItemChecks.text(doc, "Settings/ExecutionTimeLimit"));
        assertEquals(LogonTaskXml.RESTART_INTERVAL, LoginItemChecks.text(doc, "Settings/RestartOnFailure/Interval"));
        assertEquals(Integer.toString(LogonTaskXml.RESTART_COUNT), LoginItemChecks.text(doc, "Settings/RestartOnFailure/Count"));
        assertEquals("supervisor run", LoginItemChecks.text(doc, "Actions/Exec/Arguments"));
        assertTrue(LoginItemChecks.text(doc, "Actions/Exec/Command").endsWith("saccade.cmd"));
    }

    @Test
    void schemaSubsetRejectsATaskWithoutActions() {
        final String text = task().text().replaceAll("(?s)<Actions.*</Actions>", "");

        assertThrows(SAXParseException.class, () -> LoginItemChecks.taskXml(utf16(text)));
    }

    @Test
    void schemaSubsetRejectsAnUnknownInstancesPolicyAndATooShortRestartInterval() {
        final String policy = task().text().replace(">IgnoreNew<", ">Sometimes<");
        final String interval = task().text().replace(">" + LogonTaskXml.RESTART_INTERVAL + "<", ">PT10S<");

        assertThrows(SAXParseException.class, () -> LoginItemChecks.taskXml(utf16(policy)));
        assertThrows(SAXParseException.class, () -> LoginItemChecks.taskXml(utf16(interval)));
    }

    @Test
    void printedCommandsUseCmdQuoting() {
        final InstallLayout layout = InstallLayout.of(Platform.WINDOWS, Path.of("/home/a b"), false, Map.of());
        final LogonTaskXml item = new LogonTaskXml(layout, "1.2.3", WINDOWS_ENV);

        assertEquals("schtasks /Create /TN \\Saccade\\Supervisor /XML \"" + layout.loginItem() + "\" /F",
            item.commandLine(item.enableCommand()));
        assertEquals("schtasks /Delete /TN \\Saccade\\Supervisor /F", item.commandLine(item.disableCommand()));
    }

    @Test
    void layoutUsesLocalAppDataOnlyForTheUsersOwnHome() {
        final InstallLayout own = InstallLayout.of(Platform.WINDOWS, Path.of("/home/ada"), true,
            Map.of("LOCALAPPDATA", "/lad"));
        final InstallLayout trial = InstallLayout.of(Platform.WINDOWS, Path.of("/tmp/h"), false,
            Map.of("LOCALAPPDATA", "/lad"));

        assertEquals(Path.of("/lad/Saccade"), own.root());
        assertEquals(Path.of("/tmp/h/AppData/Local/Saccade"), trial.root());
    }

    private static byte[] utf16(final String text) {
        return text.getBytes(StandardCharsets.UTF_16);
    }
}
