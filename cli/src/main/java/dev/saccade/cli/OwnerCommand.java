package dev.saccade.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code saccade owner}: the desktop owner service itself. */
@Command(name = "owner", mixinStandardHelpOptions = true,
    header = "Run the desktop owner service.",
    description = "The owner publishes scene generations of the desktop and answers agents on the agent endpoint.",
    subcommands = OwnerRunCommand.class)
final class OwnerCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: try `saccade owner run`");
    }
}
