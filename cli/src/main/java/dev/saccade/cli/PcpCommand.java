package dev.saccade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code saccade pcp}: not built yet; the command is reserved so its place in the help is fixed. */
@Command(name = "pcp", mixinStandardHelpOptions = true, header = "Talk PCP, the JSON-RPC 2.0 capability protocol (issue 8).")
final class PcpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "saccade pcp is not built yet");
    }
}
