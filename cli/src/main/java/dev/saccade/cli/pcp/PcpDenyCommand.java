package dev.saccade.cli.pcp;

import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code saccade pcp deny ID}: the user refuses a pending confirmation; its invoker gets -32006. */
@Command(name = "deny", mixinStandardHelpOptions = true, header = "Refuse a pending PCP confirmation.")
public final class PcpDenyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    PcpSocketOptions socket;
    @Parameters(index = "0", paramLabel = "ID", description = "The confirmation_id from the -32005 error's data.")
    String id;

    @Override
    public Integer call() throws IOException {
        return PcpConfirmCommand.resolve(spec, socket, "deny", id);
    }
}
