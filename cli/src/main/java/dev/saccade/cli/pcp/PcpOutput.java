package dev.saccade.cli.pcp;

import dev.saccade.cli.ExitCodes;
import dev.saccade.pcp.JsonTree;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/** Prints a JSON-RPC response as one line and maps it to an exit code: result 0, error 4. */
final class PcpOutput {
    private PcpOutput() {
    }

    static int print(final CommandSpec spec, final Map<String, Object> response) {
        final PrintWriter out = spec.commandLine().getOut();
        out.println(JsonTree.write(response));
        out.flush();
        return response.containsKey("error") ? ExitCodes.REQUEST_REJECTED : ExitCodes.SUCCESS;
    }
}
