package dev.saccade.cli.pcp;

import dev.saccade.owner.pcp.HostConfirmations;
import dev.saccade.owner.pcp.JsonTree;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code saccade pcp confirm ID}: the user approves a pending confirmation on the host
 * confirmation socket; the capability runs in its application and its CapabilityResult is
 * printed. Never reachable through PCP itself.
 */
@Command(name = "confirm", mixinStandardHelpOptions = true, header = "Approve a pending PCP confirmation.",
    description = "Runs the capability in its application and prints the JSON-RPC response with its result.")
public final class PcpConfirmCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    PcpSocketOptions socket;
    @Parameters(index = "0", paramLabel = "ID", description = "The confirmation_id from the -32005 error's data.")
    String id;

    @Override
    public Integer call() throws IOException {
        return resolve(spec, socket, "confirm", id);
    }

    static int resolve(final CommandSpec spec, final PcpSocketOptions socket, final String method, final String id)
        throws IOException {
        return socket.with(spec, HostConfirmations.SOCKET_NAME,
            client -> PcpOutput.print(spec, client.call(method, JsonTree.object("confirmation_id", id), null)));
    }
}
