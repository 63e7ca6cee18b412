package dev.saccade.cli;

import dev.saccade.cli.pcp.PcpCallCommand;
import dev.saccade.cli.pcp.PcpConfirmCommand;
import dev.saccade.cli.pcp.PcpDenyCommand;
import dev.saccade.cli.pcp.PcpListenCommand;
import dev.saccade.cli.pcp.PcpTrustCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code saccade pcp}: talk PCP to the owner service; the subcommands live in {@code dev.saccade.cli.pcp}. */
@Command(name = "pcp", mixinStandardHelpOptions = true, header = "Talk PCP, the JSON-RPC 2.0 capability protocol.",
    subcommands = {PcpCallCommand.class, PcpListenCommand.class, PcpConfirmCommand.class, PcpDenyCommand.class,
        PcpTrustCommand.class})
final class PcpCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: try `saccade pcp call health.check`");
    }
}
