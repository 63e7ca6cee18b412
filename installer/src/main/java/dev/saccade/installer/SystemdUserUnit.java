package dev.saccade.installer;

import java.util.List;

/**
 * The systemd user unit {@code saccade-supervisor.service}. {@code Type=notify}: the supervisor
 * says READY=1 once its control socket serves, so {@code systemctl --user start} returns when it
 * can be used. {@code Restart=on-failure} brings a crashed supervisor back; the start limit in
 * {@code [Unit]} (where systemd reads it) stops a supervisor that dies at once from looping.
 * {@code ExecStart} goes through {@code %h}, so the unit names no user and survives a home move.
 *
 * <p>Bound to the graphical session: {@code WantedBy=graphical-session.target} starts it with the
 * session (not when the user manager starts, before any display exists), {@code After=} lets the
 * session import {@code DISPLAY} into the manager's environment first, and {@code PartOf=} stops
 * it when the session ends. A supervisor that still finds no display waits for one (the
 * supervisor's {@code SessionDisplay}) and says so in {@code saccade supervisor status}.
 */
final class SystemdUserUnit implements LoginItem {
    static final int RESTART_SEC = 2;
    static final int START_LIMIT_INTERVAL_SEC = 60;
    static final int START_LIMIT_BURST = 5;
    /**
     * Hardening a user manager applies without privileges or namespaces: no privilege gained
     * through exec (set-uid helpers), no set-uid files made, no personality or realtime tricks,
     * native system calls only, files private by default. Left out on purpose: ProtectSystem,
     * PrivateTmp and the like need a user namespace in a user unit (not everywhere available:
     * the unit would then not start at all), and the owner must reach {@code /tmp/.X11-unix},
     * write its runtime directory and, where {@code $XDG_RUNTIME_DIR} is unset,
     * {@code /tmp/saccade-<uid>}; MemoryDenyWriteExecute would stop the JIT.
     */
    static final String HARDENING = "NoNewPrivileges=yes\n"
        + "RestrictSUIDSGID=yes\n"
        + "LockPersonality=yes\n"
        + "RestrictRealtime=yes\n"
        + "SystemCallArchitectures=native\n"
        + "UMask=0077\n";
    /** The systemd target a graphical session's user services hang off (systemd.special(7)). */
    static final String SESSION_TARGET = "graphical-session.target";

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
        return text(launcher, "`saccade install` (Saccade " + version + "); `saccade uninstall` removes it");
    }

    /**
     * The unit for {@code launcher} (a path systemd accepts in ExecStart, {@code %h} allowed);
     * {@code writtenBy} says in its first line who wrote it. A system package's unit is this one
     * with an absolute launcher.
     */
    static String text(final String launcher, final String writtenBy) {
        return "# Written by " + writtenBy + ".\n"
            + "[Unit]\n"
            + "Description=Saccade supervisor: desktop automation for local AI agents\n"
            + "PartOf=" + SESSION_TARGET + "\n"
            + "After=" + SESSION_TARGET + "\n"
            + "StartLimitIntervalSec=" + START_LIMIT_INTERVAL_SEC + "\n"
            + "StartLimitBurst=" + START_LIMIT_BURST + "\n"
            + "\n"
            + "[Service]\n"
            + "Type=notify\n"
            + "ExecStart=" + launcher + " supervisor run\n"
            + "Restart=on-failure\n"
            + "RestartSec=" + RESTART_SEC + "\n"
            + HARDENING
            + "\n"
            + "[Install]\n"
            + "WantedBy=" + SESSION_TARGET + "\n";
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
