package dev.saccade.cli;

import dev.saccade.supervisor.ControlRequest;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code saccade supervisor restart [owner|helper|all]}: a planned restart in place. */
@Command(name = "restart", mixinStandardHelpOptions = true,
    header = "Restart the owner in place (the endpoint keeps listening), the helper, or both.")
final class SupervisorRestartCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SupervisorControlOptions control;

    @Parameters(index = "0", arity = "0..1", defaultValue = ControlRequest.OWNER, paramLabel = "owner|helper|all",
        description = "What to restart (default: ${DEFAULT-VALUE}).")
    String target;

    @Override
    public Integer call() {
        return control.send(ControlRequest.restart(target), spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
