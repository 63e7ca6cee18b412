package dev.saccade.cli;

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
        final CommandLine root = new CommandLine(new SaccadeCommand());
        exitWithUsageOnInvalidInput(root);
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
}
