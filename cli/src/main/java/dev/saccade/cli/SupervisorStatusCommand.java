package dev.saccade.cli;

import dev.saccade.supervisor.ControlRequest;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code saccade supervisor status}: one control request; the reply JSON line on stdout. */
@Command(name = "status", mixinStandardHelpOptions = true, header = "Show the children, pids, versions, restarts, uptime and last exit.")
final class SupervisorStatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SupervisorControlOptions control;

    @Override
    public Integer call() {
        return control.send(ControlRequest.status(), spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
