package dev.saccade.installer;

import java.util.List;

/**
 * The macOS LaunchAgent {@code ~/Library/LaunchAgents/dev.saccade.supervisor.plist}.
 * {@code RunAtLoad} starts it at login; {@code KeepAlive} restarts it when it exits with a failure
 * ({@code SuccessfulExit false}) or dies from a signal ({@code Crashed true}), so a planned
 * {@code saccade supervisor stop} stays stopped; {@code ThrottleInterval} spaces restarts;
 * {@code LimitLoadToSessionType Aqua} because input and accessibility need the GUI session.
 * Unverified here (no launchd): the file is checked as a parsed plist with the required keys.
 */
final class LaunchAgentPlist implements LoginItem {
    static final int THROTTLE_INTERVAL_S = 10;

    private final InstallLayout layout;
    private final String version;

    LaunchAgentPlist(final InstallLayout layout, final String version) {
        this.layout = layout;
        this.version = version;
    }

    @Override
    public String text() {
        final String log = layout.logDirectory().resolve("supervisor.log").toString();
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
            + "<!-- Written by `saccade install` (Saccade " + LoginItem.xml(version)
            + "); `saccade uninstall` removes it. -->\n"
            + "<plist version=\"1.0\">\n"
            + "<dict>\n"
            + "  <key>Label</key>\n"
            + "  <string>" + InstallLayout.LAUNCH_AGENT_LABEL + "</string>\n"
            + "  <key>ProgramArguments</key>\n"
            + "  <array>\n"
            + "    <string>" + LoginItem.xml(layout.currentLauncher().toString()) + "</string>\n"
            + "    <string>supervisor</string>\n"
            + "    <string>run</string>\n"
            + "  </array>\n"
            + "  <key>RunAtLoad</key>\n"
            + "  <true/>\n"
            + "  <key>KeepAlive</key>\n"
            + "  <dict>\n"
            + "    <key>SuccessfulExit</key>\n"
            + "    <false/>\n"
            + "    <key>Crashed</key>\n"
            + "    <true/>\n"
            + "  </dict>\n"
            + "  <key>ThrottleInterval</key>\n"
            + "  <integer>" + THROTTLE_INTERVAL_S + "</integer>\n"
            + "  <key>LimitLoadToSessionType</key>\n"
            + "  <string>Aqua</string>\n"
            + "  <key>ProcessType</key>\n"
            + "  <string>Interactive</string>\n"
            + "  <key>StandardOutPath</key>\n"
            + "  <string>" + LoginItem.xml(log) + "</string>\n"
            + "  <key>StandardErrorPath</key>\n"
            + "  <string>" + LoginItem.xml(log) + "</string>\n"
            + "</dict>\n"
            + "</plist>\n";
    }

    @Override
    public List<String> enableCommand() {
        // gui/<uid> is the logged-in user's GUI domain; $(id -u) is expanded by the user's shell.
        return List.of("launchctl", "bootstrap", "gui/$(id -u)", layout.loginItem().toString());
    }

    @Override
    public List<String> disableCommand() {
        return List.of("launchctl", "bootout", "gui/$(id -u)/" + InstallLayout.LAUNCH_AGENT_LABEL);
    }
}
