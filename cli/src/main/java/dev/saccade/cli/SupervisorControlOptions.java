package dev.saccade.cli;

import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.supervisor.SupervisorClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options of a command that sends one request to the supervisor's control socket. */
final class SupervisorControlOptions {
    @Option(names = "--runtime-dir", paramLabel = "DIR",
        description = "Runtime directory of the supervisor (default: $XDG_RUNTIME_DIR/saccade, else /tmp/saccade-<uid>).")
    Path runtimeDirectory;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "120000",
        description = "How long to wait for the answer; an upgrade waits for the new owner (default: ${DEFAULT-VALUE}).")
    int timeoutMs;

    /** Sends {@code requestLine}, prints the reply line; 0 when it says ok. */
    int send(final String requestLine, final PrintWriter out, final PrintWriter err) {
        final Path socket;
        try {
            socket = (runtimeDirectory != null ? runtimeDirectory : RuntimeDirectory.resolve(System.getenv()))
                .resolve(RuntimeDirectory.SUPERVISOR_SOCKET_NAME);
        } catch (final IOException e) {
            err.println("saccade: cannot find the runtime directory: " + e.getMessage());
            return ExitCodes.CONNECTION_FAILED;
        }
        final String reply;
        try {
            reply = SupervisorClient.request(socket, requestLine, timeoutMs);
        } catch (final IOException e) {
            err.println("saccade: no supervisor answers on " + socket + " (" + e.getMessage()
                + "); start one with `saccade supervisor run` or `saccade up`");
            return ExitCodes.CONNECTION_FAILED;
        }
        out.println(reply);
        out.flush();
        return reply.startsWith("{\"ok\":true") ? ExitCodes.SUCCESS : ExitCodes.REQUEST_REJECTED;
    }
}
