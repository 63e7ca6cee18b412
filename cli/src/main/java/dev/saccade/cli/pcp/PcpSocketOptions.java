package dev.saccade.cli.pcp;

import dev.saccade.cli.ExitCodes;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.pcp.PcpClient;
import java.io.IOException;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code --socket} and {@code --timeout-ms} of the PCP client commands, and the connection they describe. */
public final class PcpSocketOptions {
    @Option(names = "--socket", paramLabel = "PATH",
        description = "PCP socket (default: $XDG_RUNTIME_DIR/saccade/" + RuntimeDirectory.PCP_SOCKET_NAME
            + "; the host confirmation socket beside it for confirm and deny).")
    Path socket;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "30000",
        description = "How long to wait for each reply, in milliseconds (default: ${DEFAULT-VALUE}).")
    int timeoutMs;

    /** The PCP socket, or the file {@code name} beside it. */
    Path path(final String name) throws IOException {
        final Path pcp = socket != null ? socket
            : RuntimeDirectory.resolve(System.getenv()).resolve(RuntimeDirectory.PCP_SOCKET_NAME);
        return name == null ? pcp : pcp.resolveSibling(name);
    }

    /** What a command does with its connection; returns the exit code. */
    interface Session {
        int run(PcpClient client) throws IOException;
    }

    /**
     * Connects to {@link #path} and runs {@code session}; when the socket cannot be reached,
     * says so on standard error and returns {@link ExitCodes#CONNECTION_FAILED}.
     */
    int with(final CommandSpec spec, final String name, final Session session) throws IOException {
        final Path path = path(name);
        final PcpClient client;
        try {
            client = PcpClient.connect(path, Duration.ofMillis(Math.max(1, timeoutMs)));
        } catch (final SocketException e) {
            spec.commandLine().getErr().println("saccade: cannot connect to " + path + ": "
                + (Files.exists(path, LinkOption.NOFOLLOW_LINKS)
                ? "nothing listens on it (is the owner service running?)" : "no socket there") + " (" + e.getMessage() + ")");
            spec.commandLine().getErr().flush();
            return ExitCodes.CONNECTION_FAILED;
        }
        try (client) {
            return session.run(client);
        }
    }
}
