package dev.saccade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code saccade upgrade}: not built yet; the command is reserved so its place in the help is fixed. */
@Command(name = "upgrade", mixinStandardHelpOptions = true, header = "Install a new version and upgrade the running service in place (issue 6).")
final class UpgradeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "saccade upgrade is not built yet");
    }
}
