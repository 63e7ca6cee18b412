package dev.saccade.cli.pcp;

import picocli.CommandLine.Command;

/** {@code saccade pcp deny ID}: the user refuses a pending confirmation; its invoker gets -32006. */
@Command(name = "deny", mixinStandardHelpOptions = true, header = "Refuse a pending PCP confirmation.")
public final class PcpDenyCommand extends ConfirmationDecision {
    @Override
    String method() {
        return "deny";
    }
}
