package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.client.ServiceUnavailableException;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.HelloFlag;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --endpoint} and {@code --timeout-ms} of every command that talks to the agent endpoint,
 * and the connection they describe: connected, Hello done, asking only for the capabilities the
 * command needs.
 */
final class EndpointOptions {
    /** request_id of the Hello; the command's own requests count up from {@link #FIRST_REQUEST_ID}. */
    static final long HELLO_REQUEST_ID = 1;
    static final long FIRST_REQUEST_ID = 2;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--endpoint", paramLabel = "PATH",
        description = "Agent endpoint socket of the Saccade service (default: $XDG_RUNTIME_DIR/saccade/"
            + RuntimeDirectory.AGENT_SOCKET_NAME + ", or /tmp/saccade-<uid>/" + RuntimeDirectory.AGENT_SOCKET_NAME
            + " where XDG_RUNTIME_DIR is unset).")
    Path endpoint;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "5000",
        description = "How long to wait for the connection and for each reply, in milliseconds (default:"
            + " ${DEFAULT-VALUE}). A read that waits for a newer generation gets --wait-ms on top.")
    int timeoutMs;

    /** The socket to connect to: {@code --endpoint}, else the standard one of this user. */
    Path path() throws IOException {
        return endpoint != null ? endpoint
            : RuntimeDirectory.resolve(System.getenv()).resolve(RuntimeDirectory.AGENT_SOCKET_NAME);
    }

    /** Usage errors of these options; call before connecting. */
    void validate() {
        if (timeoutMs <= 0) {
            throw new ParameterException(mixee.commandLine(),
                "Invalid value for option '--timeout-ms': must be at least 1 but was " + timeoutMs);
        }
    }

    /**
     * Connects and says Hello asking for {@code capabilities}, and for the extended roles and the
     * target states (§1.4).
     *
     * @param extraReadMs added to the read timeout, for a reply the service may hold back
     *     (a wait for a newer generation).
     * @throws ServiceUnavailableException nothing listens at the path (exit code 2).
     * @throws EndpointUnreachableException any other failure to connect (exit code 2).
     */
    AgentClient connect(final int capabilities, final long extraReadMs) throws IOException {
        validate();
        Path path = endpoint;
        final AgentClient client;
        try {
            path = path();
            client = AgentClient.connect(path, Duration.ofMillis(timeoutMs));
        } catch (final ServiceUnavailableException e) {
            throw e;
        } catch (final IOException e) {
            throw new EndpointUnreachableException(path, e);
        }
        try {
            client.readTimeout(Duration.ofMillis(timeoutMs + Math.max(0, extraReadMs)));
            // Extended roles and states: the CLI and MCP print their names (§1.4); minor 2 for
            // the WINDOW scope and the explicit-window flags (§5.14).
            client.apiVersion(AgentAbi.API_VERSION_1_2);
            client.hello(HELLO_REQUEST_ID, capabilities, HelloFlag.EXTENDED_ROLES | HelloFlag.TARGET_STATES);
            return client;
        } catch (final IOException | RuntimeException e) {
            try {
                client.close();
            } catch (final IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
