package dev.saccade.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code saccade supervisor}: run the per-session supervisor, or ask a running one. */
@Command(name = "supervisor", mixinStandardHelpOptions = true,
    header = "Run or control the supervisor (owner and input helper children, restarts, upgrades).",
    description = "The supervisor starts the owner service and the input helper, restarts them with backoff, keeps "
        + "the agent endpoint listening across restarts and upgrades, and answers on its control socket.",
    subcommands = {SupervisorRunCommand.class, SupervisorStatusCommand.class, SupervisorRestartCommand.class,
        SupervisorUpgradeCommand.class, SupervisorStopCommand.class})
final class SupervisorCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
            "missing subcommand: try `saccade supervisor run` or `saccade supervisor status`");
    }
}
