package dev.saccade.cli;

import dev.saccade.mcp.McpServer;
import dev.saccade.protocol.Capability;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code saccade mcp}: the MCP stdio adapter (spec/mcp.md) over the same binary client and
 * request builders as {@code saccade observe|query|act}. Its exit codes are mcp.md §1's, not
 * {@link ExitCodes}' (an MCP host reads them), and the help says so.
 */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    header = "Serve the Model Context Protocol on standard input and output.",
    description = {
        "An MCP server for agents that speak the Model Context Protocol (JSON-RPC 2.0): one message per line on"
            + " standard input (at most 65,536 bytes including the newline), one compact response line each on"
            + " standard output, logs on standard error. Protocol versions 2025-06-18 and 2025-11-25 (initialize,"
            + " notifications/initialized, ping, tools/list, tools/call) and 2026-07-28 (server/discover,"
            + " tools/list, tools/call, each with its _meta); the client's first request chooses.",
        "Tools: saccade_observe, saccade_query and saccade_act. They send the very requests of `saccade"
            + " observe|query|act` to the Saccade service, which checks every capability, generation and"
            + " permission. The service is connected on the first tool call, not before; a read is retried once"
            + " on a new connection after a lost one; an action is never sent twice.",
        "Register it with an MCP host as the command `saccade mcp` (docs/mcp-clients.md has the configuration"
            + " of Claude Code, Claude Desktop, Cursor and VS Code)."},
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    optionListHeading = "%nOptions:%n",
    exitCodeListHeading = "%nExit codes (of this command; they differ from the other commands'):%n",
    exitCodeList = {
        "0:end of input, every complete line answered",
        "1:connection failed (reserved, unused: a failed connection is a tool result); also a usage error of"
            + " this command line, before any input is read",
        "2:input failure: a line over 65,536 bytes, or standard input failed",
        "3:output failure: writing or flushing standard output failed"},
    footerHeading = "%nExample:%n",
    footer = {"  {\"mcpServers\":{\"saccade\":{\"command\":\"saccade\",\"args\":[\"mcp\"]}}}"})
final class McpCommand implements Callable<Integer> {
    /** Extra read time on top of --timeout-ms: a read may wait 2 s for a newer generation. */
    static final long READ_WAIT_MS = 2_000;

    @Mixin
    EndpointOptions endpoint;

    @Override
    public Integer call() {
        endpoint.validate();
        // Standard input and output as file descriptors: raw bytes, and a closed output fails the write.
        return new McpServer(new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out),
            System.err, VersionProvider.projectVersion(),
            () -> endpoint.connect(Capability.POLICY, READ_WAIT_MS)).run();
    }
}
