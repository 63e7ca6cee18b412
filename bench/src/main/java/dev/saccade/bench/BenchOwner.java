package dev.saccade.bench;

import dev.saccade.owner.OwnerEndpoint;
import dev.saccade.owner.scene.SceneStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real owner in this JVM, wired as the service wires it ({@link OwnerEndpoint}): endpoint
 * listener, acceptor thread, owner agent on its runner thread with the idle strategy from system
 * properties ({@code saccade.owner.idle.*}), woken by scene publications.
 */
final class BenchOwner implements AutoCloseable {
    private final OwnerEndpoint endpoint;

    private BenchOwner(final OwnerEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    static BenchOwner start(final Path socket, final SceneStore store, final int maxClients) throws Exception {
        return new BenchOwner(OwnerEndpoint.serve(socket, store, maxClients, Duration.ofSeconds(1)));
    }

    /** The owner thread, whose allocation and CPU counters the harness reads. */
    Thread thread() {
        return endpoint.runner().thread();
    }

    /** Why the owner loop died, or null. */
    Throwable failure() {
        return endpoint.runner().failure();
    }

    @Override
    public void close() throws IOException {
        endpoint.close();
    }
}
