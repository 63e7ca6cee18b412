package dev.saccade.bench;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.owner.EndpointAcceptor;
import dev.saccade.owner.OwnerAgent;
import dev.saccade.owner.OwnerIdleStrategy;
import dev.saccade.owner.OwnerRunner;
import dev.saccade.owner.scene.SceneStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real owner in this JVM, wired as the service wires it: endpoint listener, acceptor thread,
 * owner agent on its runner thread with the idle strategy from system properties
 * ({@code saccade.owner.idle.*}), woken by scene publications. Stopped in reverse.
 */
final class BenchOwner implements AutoCloseable {
    private final EndpointListener listener;
    private final EndpointAcceptor acceptor;
    private final OwnerRunner runner;

    private BenchOwner(final EndpointListener listener, final EndpointAcceptor acceptor, final OwnerRunner runner) {
        this.listener = listener;
        this.acceptor = acceptor;
        this.runner = runner;
    }

    static BenchOwner start(final Path socket, final SceneStore store, final int maxClients) throws Exception {
        final EndpointListener listener = EndpointListener.bind(socket, Duration.ofSeconds(1));
        final OwnerIdleStrategy idle = OwnerIdleStrategy.fromSystemProperties();
        final EndpointAcceptor acceptor = new EndpointAcceptor(listener, maxClients, idle::wake).start();
        final OwnerAgent agent = new OwnerAgent(acceptor, store, maxClients);
        store.publishListener(idle::wake);
        return new BenchOwner(listener, acceptor, new OwnerRunner(agent, idle).start());
    }

    /** The owner thread, whose allocation and CPU counters the harness reads. */
    Thread thread() {
        return runner.thread();
    }

    /** Why the owner loop died, or null. */
    Throwable failure() {
        return runner.failure();
    }

    @Override
    public void close() throws IOException {
        try {
            acceptor.close();
            runner.close();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            listener.close();
        }
    }
}
