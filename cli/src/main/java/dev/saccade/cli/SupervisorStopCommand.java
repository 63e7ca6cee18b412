package dev.saccade.cli;

import dev.saccade.supervisor.ControlRequest;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code saccade supervisor stop}: one control request; the reply JSON line on stdout. */
@Command(name = "stop", mixinStandardHelpOptions = true, header = "Stop the supervisor, its owner and helper (held input is released).")
final class SupervisorStopCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SupervisorControlOptions control;

    @Override
    public Integer call() {
        return control.send(ControlRequest.stop(), spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
