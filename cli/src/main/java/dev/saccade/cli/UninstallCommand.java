package dev.saccade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code saccade uninstall}: not built yet; the command is reserved so its place in the help is fixed. */
@Command(name = "uninstall", mixinStandardHelpOptions = true, header = "Remove Saccade and its login item (issue 6).")
final class UninstallCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "saccade uninstall is not built yet");
    }
}
