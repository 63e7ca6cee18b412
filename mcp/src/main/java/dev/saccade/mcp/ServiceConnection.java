package dev.saccade.mcp;

import dev.saccade.client.AgentClient;
import dev.saccade.client.IdleRelease;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * The adapter's one connection to the agent endpoint (mcp.md §9): made on the first valid tool
 * call, not before (initialize, ping, tools/list and invalid arguments never connect); reused
 * while it works; dropped on a transport failure so the next use connects and says Hello again.
 * Before each use it looks whether the service closed it meanwhile (an owner restart, or the
 * owner giving an idle connection's slot to a waiting client, agent-abi §1.1): then it connects
 * again, so a request, an action above all, is never written on a connection already gone.
 * An idle connection is given back after 30 s ({@code saccade.mcp.idle.release.ms}), so agents
 * that are not working hold no slot of the service.
 */
public final class ServiceConnection implements AutoCloseable {
    /**
     * Connects and completes Hello (request_id 1, OBSERVE|POINTER|KEYBOARD|WINDOW, asking for the
     * extended roles and the target states, §1.4).
     */
    @FunctionalInterface
    public interface Connector {
        AgentClient connect() throws IOException;
    }

    private final Connector connector;
    private AgentClient client;
    private int connects;
    /** Between {@link #client()} and {@link #released()}: a tool call uses the connection. */
    private boolean busy;
    private final IdleRelease idle;

    ServiceConnection(final Connector connector) {
        this(connector, TimeUnit.MILLISECONDS.toNanos(McpConfiguration.idleReleaseMs()));
    }

    ServiceConnection(final Connector connector, final long idleReleaseNs) {
        this.connector = connector;
        this.idle = new IdleRelease("saccade-mcp-idle-release", idleReleaseNs, this, () -> client != null, () -> busy,
            this::drop);
    }

    /** The open connection, connecting first when there is none; it is in use until {@link #released()}. */
    synchronized AgentClient client() throws IOException {
        busy = true;
        if (client == null || client.peerClosed()) {
            drop();
            connects++;
            client = connector.connect();
        }
        return client;
    }

    /**
     * A tool call is done with the connection. Kept for the next call, it is given back after
     * {@link #IDLE_RELEASE_MS_DEFAULT} ms without one, so an idle agent holds no slot of the
     * service (agent-abi §1.1); the next call connects again.
     */
    synchronized void released() {
        busy = false;
        idle.used();
    }

    /** Closes the connection after a failure: its request/reply pairing is lost. */
    synchronized void drop() {
        if (client != null) {
            try {
                client.close();
            } catch (final IOException ignore) {
                // ignore: the connection is being abandoned because it failed already
            }
            client = null;
        }
    }

    /** Whether a connection is open now (tests, logging). */
    synchronized boolean connected() {
        return client != null;
    }

    /** How many connections were attempted (logged at exit). */
    synchronized int connects() {
        return connects;
    }

    @Override
    public synchronized void close() {
        drop();
        idle.close();
    }
}
