package dev.saccade.cli.pcp;

import dev.saccade.pcp.JsonTree;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code saccade pcp confirm ID CODE}: the user approves a pending confirmation on the host
 * confirmation socket with the code its prompt showed (pcp §5.3); the capability runs in its
 * application and its CapabilityResult is printed. Never reachable through PCP itself, and
 * refused to the process that asked and to its descendants.
 */
@Command(name = "confirm", mixinStandardHelpOptions = true, header = "Approve a pending PCP confirmation.",
    description = "Runs the capability in its application and prints the JSON-RPC response with its result. "
        + "CODE is the code the desktop notification showed; the process that asked, and its descendants, "
        + "are refused.")
public final class PcpConfirmCommand extends ConfirmationDecision {
    @Parameters(index = "1", paramLabel = "CODE", description = "The code shown in the confirmation's notification.")
    String code;

    @Override
    String method() {
        return "confirm";
    }

    @Override
    Map<String, Object> params() {
        return JsonTree.object("confirmation_id", id, "code", code);
    }
}
