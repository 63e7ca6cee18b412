package dev.saccade.cli;

import dev.saccade.installer.InstallException;
import dev.saccade.installer.InstallLayout;
import dev.saccade.installer.LoginItem;
import dev.saccade.installer.Uninstall;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code saccade uninstall}: switches the login item off (systemctl on Linux, where it can) and
 * removes everything install wrote: the login item, every installed version, the current link,
 * and the directories install created when they are empty.
 */
@Command(
    name = "uninstall",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    header = "Remove Saccade and its login item.",
    description = {
        "On Linux, stops and disables the unit with `systemctl --user disable --now` when a user manager is"
            + " reachable (otherwise, and on macOS and Windows, prints the command that switches the login item"
            + " off), then removes the login item, the data directory with every installed version, and the"
            + " directories install created, where nothing else has been put in them since."},
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    optionListHeading = "%nOptions:%n")
final class UninstallCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    LayoutOptions layoutOptions;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final InstallLayout layout = layoutOptions.layout();
        // Off first: a supervisor still running would be left without its files.
        final int exitCode = Files.exists(layout.loginItem())
            ? new LoginItemSwitch(layoutOptions, out, err).off(LoginItem.of(layout, "")) : ExitCodes.SUCCESS;
        final List<Path> removed;
        try {
            removed = Uninstall.run(layout);
        } catch (final InstallException e) {
            return LayoutOptions.report(e, err);
        }
        if (removed.isEmpty()) {
            out.println("nothing to remove: Saccade is not installed in " + layout.root());
        }
        for (final Path path : removed) {
            out.println("removed " + path);
        }
        out.flush();
        return exitCode;
    }
}
