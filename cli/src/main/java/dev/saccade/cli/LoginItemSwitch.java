package dev.saccade.cli;

import dev.saccade.installer.InstallLayout;
import dev.saccade.installer.LoginItem;
import dev.saccade.installer.Systemctl;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/**
 * Switches a login item on (install) or off (uninstall) with {@code systemctl --user} where saccade
 * can, and otherwise says why not and prints the one command that does it.
 */
final class LoginItemSwitch {
    private final LayoutOptions layout;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Systemctl systemctl = new Systemctl();

    LoginItemSwitch(final LayoutOptions layout, final PrintWriter out, final PrintWriter err) {
        this.layout = layout;
        this.out = out;
        this.err = err;
    }

    /** {@code systemctl --user enable --now}, or the command printed; an exit code. */
    int on(final LoginItem item) {
        final List<String> command = item.enableCommand();
        final String why = whyNot();
        if (why != null) {
            out.println("the login item is not switched on: " + why + ". Run this command to switch it on:");
            out.println(item.commandLine(command));
            out.flush();
            return ExitCodes.SUCCESS;
        }
        if (!run(item, command)) {
            return ExitCodes.REQUEST_REJECTED;
        }
        out.println("enabled and started " + InstallLayout.SYSTEMD_UNIT_NAME + " (" + item.commandLine(command) + ")");
        out.flush();
        return ExitCodes.SUCCESS;
    }

    /** {@code systemctl --user disable --now}, or the command printed; an exit code. */
    int off(final LoginItem item) {
        final List<String> command = item.disableCommand();
        final String why = whyNot();
        if (why != null) {
            out.println("the login item is not switched off by saccade: " + why
                + ". If it was switched on, run this command to switch it off:");
            out.println(item.commandLine(command));
            out.flush();
            return ExitCodes.SUCCESS;
        }
        return run(item, command) ? ExitCodes.SUCCESS : ExitCodes.REQUEST_REJECTED;
    }

    private String whyNot() {
        final String why = layout.whyLoginItemNotSwitchable();
        if (why != null) {
            return why;
        }
        return systemctl.userManagerReachable() ? null
            : "no systemd user manager is reachable from here (`systemctl --user is-system-running`)";
    }

    private boolean run(final LoginItem item, final List<String> command) {
        try {
            final Systemctl.Result result = systemctl.run(command.subList(1, command.size()));
            if (result.ok()) {
                return true;
            }
            err.println("saccade: `" + item.commandLine(command) + "` failed (exit " + result.exitCode() + "): "
                + result.output().strip());
        } catch (final IOException e) {
            err.println("saccade: cannot run `" + item.commandLine(command) + "`: " + e.getMessage());
        }
        err.flush();
        return false;
    }
}
