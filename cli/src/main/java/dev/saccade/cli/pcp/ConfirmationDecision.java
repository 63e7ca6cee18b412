package dev.saccade.cli.pcp;

import dev.saccade.pcp.HostConfirmations;
import dev.saccade.pcp.JsonTree;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * What {@code pcp confirm} and {@code pcp deny} share: one request with the confirmation id on
 * the host confirmation socket (never the PCP socket), its response printed as one line.
 */
abstract class ConfirmationDecision implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    PcpSocketOptions socket;
    @Parameters(index = "0", paramLabel = "ID", description = "The confirmation_id from the -32005 error's data.")
    String id;

    /** The host method: {@code confirm} or {@code deny}. */
    abstract String method();

    /** The request's params: the id, and what the subcommand adds. */
    java.util.Map<String, Object> params() {
        return JsonTree.object("confirmation_id", id);
    }

    @Override
    public Integer call() throws IOException {
        return socket.with(spec, HostConfirmations.SOCKET_NAME,
            client -> PcpOutput.print(spec, client.call(method(), params(), null)));
    }
}
