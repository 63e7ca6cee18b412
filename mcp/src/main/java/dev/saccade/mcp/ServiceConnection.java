package dev.saccade.mcp;

import dev.saccade.client.AgentClient;
import java.io.IOException;

/**
 * The adapter's one connection to the agent endpoint (mcp.md §9): made on the first valid tool
 * call, not before (initialize, ping, tools/list and invalid arguments never connect); reused
 * while it works; dropped on a transport failure so the next use connects and says Hello again.
 * Before each use it looks whether the service closed it meanwhile (an owner restart, or the
 * owner giving an idle connection's slot to a waiting client, agent-abi §1.1): then it connects
 * again, so a request, an action above all, is never written on a connection already gone.
 */
public final class ServiceConnection implements AutoCloseable {
    /** Connects and completes Hello (request_id 1, OBSERVE|POINTER|KEYBOARD|WINDOW). */
    @FunctionalInterface
    public interface Connector {
        AgentClient connect() throws IOException;
    }

    private final Connector connector;
    private AgentClient client;
    private int connects;

    ServiceConnection(final Connector connector) {
        this.connector = connector;
    }

    /** The open connection, connecting first when there is none. */
    AgentClient client() throws IOException {
        if (client == null || client.peerClosed()) {
            drop();
            connects++;
            client = connector.connect();
        }
        return client;
    }

    /** Closes the connection after a failure: its request/reply pairing is lost. */
    void drop() {
        if (client != null) {
            try {
                client.close();
            } catch (final IOException ignore) {
                // ignore: the connection is being abandoned because it failed already
            }
            client = null;
        }
    }

    /** How many connections were attempted (logged at exit). */
    int connects() {
        return connects;
    }

    @Override
    public void close() {
        drop();
    }
}
