package dev.saccade.owner;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.owner.scene.SceneStore;
import java.nio.file.Path;
import java.time.Duration;

/** A real owner on a real endpoint for tests: listener, agent and its thread, stopped in reverse. */
final class OwnerHarness implements AutoCloseable {
    final EndpointListener listener;
    final EndpointAcceptor acceptor;
    final OwnerAgent agent;
    final OwnerRunner runner;

    private OwnerHarness(final EndpointListener listener, final EndpointAcceptor acceptor, final OwnerAgent agent,
        final OwnerRunner runner) {
        this.listener = listener;
        this.acceptor = acceptor;
        this.agent = agent;
        this.runner = runner;
    }

    static OwnerHarness start(final Path socketPath, final SceneStore store, final int maxClients) throws Exception {
        final EndpointListener listener = EndpointListener.bind(socketPath, Duration.ofSeconds(1));
        final OwnerIdleStrategy idle = OwnerIdleStrategy.fromSystemProperties();
        final EndpointAcceptor acceptor = new EndpointAcceptor(listener, maxClients, idle::wake).start();
        final OwnerAgent agent = new OwnerAgent(acceptor, store, maxClients);
        store.publishListener(idle::wake);
        return new OwnerHarness(listener, acceptor, agent, new OwnerRunner(agent, idle).start());
    }

    @Override
    public void close() throws Exception {
        try {
            acceptor.close();
            runner.close();
        } finally {
            listener.close();
        }
    }
}
