package dev.saccade.cli;

import dev.saccade.installer.InstallException;
import dev.saccade.installer.InstallLayout;
import dev.saccade.installer.InstallPlan;
import dev.saccade.installer.LoginItem;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saccade install}: copies a distribution into the versioned layout, points
 * {@code current} at it, writes the login item and, on Linux with a reachable user manager,
 * runs {@code systemctl --user enable --now}. Where it cannot switch the login item on itself it
 * says why and prints the one command that does.
 */
@Command(
    name = "install",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    header = "Install Saccade for this user and start its supervisor at login.",
    description = {
        "Copies the distribution to versions/<version> under the data directory (~/.local/share/saccade;"
            + " ~/Library/Application Support/Saccade on macOS; %LOCALAPPDATA%\\Saccade on Windows), points the"
            + " `current` link at it (switched atomically) and writes the login item that runs"
            + " `current/bin/saccade supervisor run`: a systemd user unit, a LaunchAgent or a Task Scheduler"
            + " logon task. Directories are 0700, files 0600 (0700 for programs).",
        "On Linux the unit is enabled and started with `systemctl --user enable --now` when a user manager"
            + " is reachable; otherwise, and on macOS and Windows, the one command to run is printed."},
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    optionListHeading = "%nOptions:%n",
    footerHeading = "%nExamples:%n",
    footer = {
        "  saccade install --dry-run",
        "  saccade install --platform macos --home /tmp/trial --dry-run",
        "  saccade install --from cli/target/saccade",
        "  saccade install --gnome-extension"})
final class InstallCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    LayoutOptions layoutOptions;

    @Mixin
    DistributionOptions distributionOptions;

    @Option(names = "--gnome-extension", description = "Only install Saccade's GNOME Shell extension for this user "
        + "($XDG_DATA_HOME/gnome-shell/extensions) and add it to the enabled extensions; GNOME loads it at the next "
        + "login (docs/desktops/gnome.md).")
    boolean gnomeExtension;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        if (gnomeExtension) {
            return GnomeExtensionInstall.run(out, spec.commandLine().getErr());
        }
        final InstallLayout layout = layoutOptions.layout();
        final InstallPlan plan;
        try {
            plan = distributionOptions.plan(layout);
            if (distributionOptions.dryRun) {
                out.println("# saccade install --dry-run: nothing is written; an install would write:");
                plan.print(out);
                out.println("# and then run: " + plan.loginItem().commandLine(plan.loginItem().enableCommand()));
                out.flush();
                return ExitCodes.SUCCESS;
            }
            plan.apply();
        } catch (final InstallException e) {
            return LayoutOptions.report(e, spec.commandLine().getErr());
        }
        out.println("installed Saccade " + plan.distribution().version() + " in " + plan.versionDirectory()
            + "; login item " + layout.loginItem());
        return new LoginItemSwitch(layoutOptions, out, spec.commandLine().getErr()).on(plan.loginItem());
    }
}
