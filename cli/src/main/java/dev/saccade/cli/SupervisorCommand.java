package dev.saccade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code saccade supervisor}: not built yet; the command is reserved so its place in the help is fixed. */
@Command(name = "supervisor", mixinStandardHelpOptions = true, header = "Run or control the supervisor (issue 6).")
final class SupervisorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "saccade supervisor is not built yet");
    }
}
