package dev.saccade.installer;

import java.util.List;

/**
 * The systemd user unit {@code saccade-supervisor.service}. {@code Type=notify}: the supervisor
 * says READY=1 once its control socket serves, so {@code systemctl --user start} returns when it
 * can be used. {@code Restart=on-failure} brings a crashed supervisor back; the start limit in
 * {@code [Unit]} (where systemd reads it) stops a supervisor that dies at once from looping.
 * {@code ExecStart} goes through {@code %h}, so the unit names no user and survives a home move.
 */
final class SystemdUserUnit implements LoginItem {
    static final int RESTART_SEC = 2;
    static final int START_LIMIT_INTERVAL_SEC = 60;
    static final int START_LIMIT_BURST = 5;

    private final InstallLayout layout;
    private final String version;

    SystemdUserUnit(final InstallLayout layout, final String version) {
        this.layout = layout;
        this.version = version;
    }

    @Override
    public String text() {
        // %h is the home directory of the user the manager runs for; the layout's launcher is
        // written relative to the home so the unit holds no absolute user path.
        final String launcher = "%h/" + layout.home().relativize(layout.currentLauncher()).toString().replace('\\', '/');
        return "# Written by `saccade install` (Saccade " + version + "); `saccade uninstall` removes it.\n"
            + "[Unit]\n"
            + "Description=Saccade supervisor: desktop automation for local AI agents\n"
            + "StartLimitIntervalSec=" + START_LIMIT_INTERVAL_SEC + "\n"
            + "StartLimitBurst=" + START_LIMIT_BURST + "\n"
            + "\n"
            + "[Service]\n"
            + "Type=notify\n"
            + "ExecStart=" + launcher + " supervisor run\n"
            + "Restart=on-failure\n"
            + "RestartSec=" + RESTART_SEC + "\n"
            + "\n"
            + "[Install]\n"
            + "WantedBy=default.target\n";
    }

    @Override
    public List<String> enableCommand() {
        return List.of("systemctl", "--user", "enable", "--now", InstallLayout.SYSTEMD_UNIT_NAME);
    }

    @Override
    public List<String> disableCommand() {
        return List.of("systemctl", "--user", "disable", "--now", InstallLayout.SYSTEMD_UNIT_NAME);
    }
}
