package dev.saccade.cli;

import dev.saccade.supervisor.ControlRequest;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code saccade supervisor upgrade --to DIST}: the owner of another distribution takes over in place. */
@Command(name = "upgrade", mixinStandardHelpOptions = true,
    header = "Replace the owner with the one of another distribution, in place (no refused connects).")
final class SupervisorUpgradeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SupervisorControlOptions control;

    @Option(names = "--to", required = true, paramLabel = "DIST",
        description = "The distribution directory (bin/saccade, lib/*.jar).")
    Path to;

    @Override
    public Integer call() {
        return control.send(ControlRequest.upgrade(to.toAbsolutePath()), spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
