package dev.saccade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code saccade mcp}: not built yet; the command is reserved so its place in the help is fixed. */
@Command(name = "mcp", mixinStandardHelpOptions = true, header = "Serve the Model Context Protocol on standard input and output (issue 7).")
final class McpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "saccade mcp is not built yet");
    }
}
