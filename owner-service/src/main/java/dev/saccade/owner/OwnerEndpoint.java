package dev.saccade.owner;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.owner.scene.SceneStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A scene store served on an agent endpoint: the listener, the acceptor thread, and the owner
 * agent on its own thread with the idle strategy from system properties, woken by scene
 * publications. The one wiring of these parts, used by {@link OwnerService}, tests and
 * benchmarks alike; {@link #close()} stops them in reverse, neutralizing every client and
 * unlinking the endpoint only if it is still ours.
 */
public final class OwnerEndpoint implements AutoCloseable {
    /** Drain polls the free-slot count; a client finishes in well under a millisecond. */
    private static final long DRAIN_POLL_NS = 1_000_000;

    /** Null until {@link #listen} for an endpoint built with {@link #prepare}. */
    private EndpointListener listener;
    private final EndpointAcceptor acceptor;
    private final OwnerAgent agent;
    private final OwnerRunner runner;
    private boolean closed;

    private OwnerEndpoint(final EndpointListener listener, final EndpointAcceptor acceptor, final OwnerAgent agent,
        final OwnerRunner runner) {
        this.listener = listener;
        this.acceptor = acceptor;
        this.agent = agent;
        this.runner = runner;
    }

    /**
     * Binds {@code socketPath} (waiting up to {@code busyWait} for a live listener to go away)
     * and starts serving {@code store}.
     */
    public static OwnerEndpoint serve(final Path socketPath, final SceneStore store, final int maxClients,
        final Duration busyWait) throws IOException {
        return serve(socketPath, store, maxClients, busyWait, new AgentService(store));
    }

    /** As above, with a service of the caller's (an input helper link, a semantic invoker). */
    public static OwnerEndpoint serve(final Path socketPath, final SceneStore store, final int maxClients,
        final Duration busyWait, final AgentService service) throws IOException {
        return serve(EndpointListener.bind(socketPath, busyWait), store, maxClients, service);
    }

    /**
     * Serves {@code store} on a listener already bound, here or by another process (a
     * supervisor's, adopted with {@link EndpointListener#adopt}); closes it if starting fails.
     */
    public static OwnerEndpoint serve(final EndpointListener listener, final SceneStore store, final int maxClients,
        final AgentService service) throws IOException {
        try {
            final OwnerIdleStrategy idle = OwnerIdleStrategy.fromSystemProperties(readiness(maxClients));
            final EndpointAcceptor acceptor = new EndpointAcceptor(listener, maxClients, idle::wake);
            final OwnerAgent agent = agent(acceptor, service, store, maxClients, idle);
            final OwnerRunner runner = new OwnerRunner(agent, idle).start();
            acceptor.start();
            return new OwnerEndpoint(listener, acceptor, agent, runner);
        } catch (final IOException | RuntimeException e) {
            listener.close();
            throw e;
        }
    }

    /**
     * A scene store ready to serve but not listening yet: buffers allocated, owner thread
     * running. {@link #listen} starts accepting. A supervised owner prepares this before it
     * reports ready, so taking over the listener costs one thread start.
     */
    public static OwnerEndpoint prepare(final SceneStore store, final int maxClients, final AgentService service) {
        final OwnerIdleStrategy idle = OwnerIdleStrategy.fromSystemProperties(readiness(maxClients));
        final EndpointAcceptor acceptor = new EndpointAcceptor(maxClients, idle::wake);
        final OwnerAgent agent = agent(acceptor, service, store, maxClients, idle);
        final OwnerRunner runner = new OwnerRunner(agent, idle).start();
        return new OwnerEndpoint(null, acceptor, agent, runner);
    }

    /** A readiness for calm sleeps (D69), unless the calm park is off or the system has no eventfd. */
    private static ClientReadiness readiness(final int maxClients) {
        return OwnerConfiguration.idleCalmParkNs() > OwnerConfiguration.idleMaxParkNs()
            ? ClientReadiness.open(maxClients) : null;
    }

    /** The owner agent, woken by scene publications and, when calm, by its clients' sockets. */
    private static OwnerAgent agent(final EndpointAcceptor acceptor, final AgentService service,
        final SceneStore store, final int maxClients, final OwnerIdleStrategy idle) {
        final OwnerAgent agent = new OwnerAgent(acceptor, service, store, maxClients).wakeBy(idle.readiness());
        store.publishListener(idle::wake);
        return agent;
    }

    /** Starts accepting on {@code endpoint} (adopted or bound); it is closed with this endpoint. */
    public synchronized void listen(final EndpointListener endpoint) throws IOException {
        if (listener != null || closed) {
            endpoint.close();
            throw new IllegalStateException(closed ? "endpoint closed" : "already listening on " + listener.path());
        }
        listener = endpoint;
        acceptor.start(endpoint);
    }

    public Path path() {
        return listener == null ? null : listener.path();
    }

    public EndpointListener listener() {
        return listener;
    }

    /** Owner-thread state; read its volatile counters only from other threads. */
    public OwnerAgent agent() {
        return agent;
    }

    public OwnerRunner runner() {
        return runner;
    }

    /**
     * Planned handoff: stops accepting (new connects wait in the backlog for the next owner),
     * then waits up to {@code timeout} for the clients in hand, and those already accepted but
     * not yet served, to finish and disconnect. The listener stays open until {@link #close()}.
     *
     * @return true if every client finished within the timeout.
     */
    public boolean drain(final Duration timeout) throws InterruptedException {
        acceptor.close();
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!acceptor.allSlotsFree()) {
            if (System.nanoTime() - deadlineNs >= 0) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(DRAIN_POLL_NS);
        }
        return true;
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            acceptor.close();
            runner.close();
        } finally {
            if (listener != null) {
                listener.close();
            }
        }
    }
}
