package dev.saccade.cli.pcp;

import picocli.CommandLine.Command;

/**
 * {@code saccade pcp confirm ID}: the user approves a pending confirmation on the host
 * confirmation socket; the capability runs in its application and its CapabilityResult is
 * printed. Never reachable through PCP itself.
 */
@Command(name = "confirm", mixinStandardHelpOptions = true, header = "Approve a pending PCP confirmation.",
    description = "Runs the capability in its application and prints the JSON-RPC response with its result.")
public final class PcpConfirmCommand extends ConfirmationDecision {
    @Override
    String method() {
        return "confirm";
    }
}
