package dev.saccade.owner;

import dev.saccade.owner.scene.SceneStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** A real owner on a real endpoint for tests, with short names for what tests look at. */
final class OwnerHarness implements AutoCloseable {
    final OwnerEndpoint endpoint;
    final OwnerAgent agent;
    final OwnerRunner runner;

    private OwnerHarness(final OwnerEndpoint endpoint) {
        this.endpoint = endpoint;
        this.agent = endpoint.agent();
        this.runner = endpoint.runner();
    }

    static OwnerHarness start(final Path socketPath, final SceneStore store, final int maxClients) throws Exception {
        return new OwnerHarness(OwnerEndpoint.serve(socketPath, store, maxClients, Duration.ofSeconds(1)));
    }

    @Override
    public void close() throws IOException {
        endpoint.close();
    }
}
