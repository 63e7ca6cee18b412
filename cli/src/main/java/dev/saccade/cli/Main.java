package dev.saccade.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.util.Map;

import picocli.CommandLine;

/** Entry point of {@code saccade}; {@code bin/saccade} runs this class with the JVM flags set. */
public final class Main {
    private Main() {
    }

    public static void main(final String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The configured command line. Tests run this same object, so what they check is what the
     * launcher runs.
     */
    static CommandLine commandLine() {
        // File descriptor 1 as bytes: binary completions pass unchanged, failed writes throw.
        return commandLine(new FileOutputStream(FileDescriptor.out));
    }

    /** {@link #commandLine()} writing command results to {@code stdout} (tests pass their own). */
    static CommandLine commandLine(final OutputStream stdout) {
        final CommandLine root = new CommandLine(new SaccadeCommand(), new CommandFactory(stdout));
        root.setExecutionExceptionHandler(new FailureHandler());
        exitWithUsageOnInvalidInput(root);
        listExitCodes(root, root.getCommandSpec().usageMessage().exitCodeList());
        return root;
    }

    /**
     * picocli answers invalid input with 2, which our table gives to a failed connection. The
     * code is looked up on the command that failed to parse, so every subcommand needs it; set
     * here for the whole tree, a subcommand added later cannot miss it.
     */
    private static void exitWithUsageOnInvalidInput(final CommandLine command) {
        command.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
        for (final CommandLine subcommand : command.getSubcommands().values()) {
            exitWithUsageOnInvalidInput(subcommand);
        }
    }

    /**
     * Every subcommand's help lists the root's exit codes (one table, declared once on
     * {@link SaccadeCommand}) unless it declares its own.
     */
    private static void listExitCodes(final CommandLine command, final Map<String, String> exitCodes) {
        for (final CommandLine subcommand : command.getSubcommands().values()) {
            final CommandLine.Model.UsageMessageSpec usage = subcommand.getCommandSpec().usageMessage();
            if (usage.exitCodeList().isEmpty()) {
                usage.exitCodeListHeading("%nExit codes:%n").exitCodeList(exitCodes);
            }
            listExitCodes(subcommand, exitCodes);
        }
    }
}
