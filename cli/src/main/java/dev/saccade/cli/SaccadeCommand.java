package dev.saccade.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Root command {@code saccade}: lists the subcommands and answers {@code --help} and {@code --version}. */
@Command(
        name = "saccade",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        header = "See what is on the desktop and act on it safely, for local AI agents.",
        description = {
            "Talks to the Saccade service of this user session over the agent endpoint.",
            "Set SACCADE_JAVA_OPTS to pass extra options to the JVM."
        },
        // No command is a usage error (see call()), so COMMAND is shown as required.
        synopsisSubcommandLabel = "COMMAND",
        synopsisHeading = "%nUsage: ",
        descriptionHeading = "%n",
        optionListHeading = "%nOptions:%n",
        commandListHeading = "%nCommands:%n",
        // The subcommands are COMMANDS, added by Main: all of them, or only the one a run invokes.
        exitCodeListHeading = "%nExit codes:%n",
        // Built from the constants, so help text and behaviour cannot drift apart.
        exitCodeList = {
            ExitCodes.SUCCESS + ":success",
            ExitCodes.USAGE + ":usage error (unknown option or command, bad argument)",
            ExitCodes.CONNECTION_FAILED + ":connection to the service failed, or no reply in time",
            ExitCodes.PROTOCOL + ":protocol error (reply breaks the wire contract)",
            ExitCodes.REQUEST_REJECTED + ":request rejected by the service",
            ExitCodes.OUTPUT + ":output failure (writing the result)",
            ExitCodes.INPUT + ":input failure (reading standard input or a file)"
        })
final class SaccadeCommand implements Callable<Integer> {
    /**
     * The subcommands, in help order. Not in the annotation: building every command's model costs
     * a one-shot run more than its own work, so {@link Main} adds only the invoked one
     * when it can tell which.
     */
    static final List<Class<?>> COMMANDS = List.of(HelpCommand.class, UpCommand.class, ObserveCommand.class,
        QueryCommand.class, WaitCommand.class, ActCommand.class, BatchCommand.class, McpCommand.class, PcpCommand.class,
        SupervisorCommand.class, OwnerCommand.class, HelperCommand.class, InstallCommand.class, UninstallCommand.class,
        UpgradeCommand.class, DoctorCommand.class);

    @Spec
    CommandSpec spec;

    /** {@code saccade} without a command is a usage error: print the usage where errors go. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
