package dev.saccade.installer;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The Windows Task Scheduler task {@code \Saccade\Supervisor} as registration XML (Task
 * Scheduler schema 1.2, namespace {@value #NAMESPACE}): a logon trigger for this user, run with
 * the user's interactive token (input and UI Automation need the desktop session), restart on
 * failure, no stop or refusal on batteries, no time limit, and a second start while one runs is
 * ignored. Stored as UTF-16 with a byte-order mark, the encoding {@code schtasks /XML} reads.
 * Unverified here (no Windows): checked as well-formed XML against a subset of the schema.
 */
final class LogonTaskXml implements LoginItem {
    static final String NAMESPACE = "http://schemas.microsoft.com/windows/2004/02/mit/task";
    /** Task Scheduler's floor for the restart interval is one minute. */
    static final String RESTART_INTERVAL = "PT1M";
    /** Its ceiling for the restart count. */
    static final int RESTART_COUNT = 999;

    private final InstallLayout layout;
    private final String version;
    private final String userId;

    LogonTaskXml(final InstallLayout layout, final String version, final Map<String, String> env) {
        this.layout = layout;
        this.version = version;
        this.userId = userId(env);
    }

    /** {@code DOMAIN\\user} from the Windows environment; elsewhere (a preview) the Java user name. */
    static String userId(final Map<String, String> env) {
        final String user = env.get("USERNAME");
        final String domain = env.get("USERDOMAIN");
        if (user != null && !user.isEmpty()) {
            return domain != null && !domain.isEmpty() ? domain + "\\" + user : user;
        }
        return System.getProperty("user.name");
    }

    @Override
    public Charset charset() {
        return StandardCharsets.UTF_16LE;
    }

    /** Little-endian UTF-16 after its byte-order mark, as Windows itself writes task XML. */
    @Override
    public byte[] bytes() {
        final byte[] text = text().getBytes(StandardCharsets.UTF_16LE);
        final byte[] bytes = new byte[text.length + 2];
        bytes[0] = (byte) 0xFF;
        bytes[1] = (byte) 0xFE;
        System.arraycopy(text, 0, bytes, 2, text.length);
        return bytes;
    }

    @Override
    public String text() {
        final String user = LoginItem.xml(userId);
        return "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n"
            + "<!-- Written by `saccade install` (Saccade " + LoginItem.xml(version)
            + "); `saccade uninstall` removes it. -->\n"
            + "<Task version=\"1.2\" xmlns=\"" + NAMESPACE + "\">\n"
            + "  <RegistrationInfo>\n"
            + "    <Description>Saccade supervisor: desktop automation for local AI agents</Description>\n"
            + "    <URI>" + LoginItem.xml(InstallLayout.TASK_NAME) + "</URI>\n"
            + "  </RegistrationInfo>\n"
            + "  <Triggers>\n"
            + "    <LogonTrigger>\n"
            + "      <Enabled>true</Enabled>\n"
            + "      <UserId>" + user + "</UserId>\n"
            + "    </LogonTrigger>\n"
            + "  </Triggers>\n"
            + "  <Principals>\n"
            + "    <Principal id=\"Author\">\n"
            + "      <UserId>" + user + "</UserId>\n"
            + "      <LogonType>InteractiveToken</LogonType>\n"
            + "      <RunLevel>LeastPrivilege</RunLevel>\n"
            + "    </Principal>\n"
            + "  </Principals>\n"
            + "  <Settings>\n"
            + "    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>\n"
            + "    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>\n"
            + "    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>\n"
            + "    <StartWhenAvailable>true</StartWhenAvailable>\n"
            + "    <RestartOnFailure>\n"
            + "      <Interval>" + RESTART_INTERVAL + "</Interval>\n"
            + "      <Count>" + RESTART_COUNT + "</Count>\n"
            + "    </RestartOnFailure>\n"
            + "    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>\n"
            + "    <Enabled>true</Enabled>\n"
            + "  </Settings>\n"
            + "  <Actions Context=\"Author\">\n"
            + "    <Exec>\n"
            + "      <Command>" + LoginItem.xml(layout.currentLauncher().toString()) + "</Command>\n"
            + "      <Arguments>supervisor run</Arguments>\n"
            + "    </Exec>\n"
            + "  </Actions>\n"
            + "</Task>\n";
    }

    @Override
    public List<String> enableCommand() {
        return List.of("schtasks", "/Create", "/TN", InstallLayout.TASK_NAME, "/XML", layout.loginItem().toString(), "/F");
    }

    /** cmd.exe quoting: double quotes around words with blanks (paths under a home with a space). */
    @Override
    public String commandLine(final List<String> command) {
        final StringBuilder line = new StringBuilder();
        for (final String word : command) {
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word.matches("[^\\s\"]+") ? word : '"' + word.replace("\"", "") + '"');
        }
        return line.toString();
    }

    @Override
    public List<String> disableCommand() {
        return List.of("schtasks", "/Delete", "/TN", InstallLayout.TASK_NAME, "/F");
    }
}
