package dev.saccade.owner;

import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.owner.source.DesktopSceneComposer;
import dev.saccade.owner.x11.DesktopSnapshot;
import dev.saccade.owner.x11.X11DesktopReader;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running owner: the desktop owner of a user session. Starts, in order, the runtime
 * directory check, the scene store (numbered above any earlier owner), the X11 reader whose
 * first snapshot becomes the first generation, the endpoint, the acceptor and the owner
 * thread; {@link #close()} stops them in reverse, disconnecting (neutralizing) every client and
 * unlinking the endpoint only if it is still ours.
 */
public final class OwnerService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerService.class);

    private final OwnerContext context;
    private SceneStore store;
    private GenerationFile generationFile;
    private X11DesktopReader reader;
    private OwnerEndpoint endpoint;
    private boolean closed;

    private OwnerService(final OwnerContext context) {
        this.context = context;
    }

    /** Starts a service on a concluded context; on failure, stops what started and rethrows. */
    public static OwnerService start(final OwnerContext context) throws IOException {
        final OwnerService service = new OwnerService(context);
        try {
            service.startAll();
            return service;
        } catch (final IOException | RuntimeException e) {
            service.close();
            throw e;
        }
    }

    private void startAll() throws IOException {
        RuntimeDirectory.ensure(context.runtimeDirectory());
        final long lastPublished = GenerationFile.read(context.generationFile());
        store = new SceneStore(OwnerContext.SCENE_PACKETS, context.maxTargets(), context.maxTextBytes(),
            SceneStore.seedGeneration(lastPublished));
        generationFile = new GenerationFile(context.generationFile());
        final DesktopSceneComposer composer = new DesktopSceneComposer(store, context.grid());
        reader = new X11DesktopReader(context.display(), snapshot -> publish(composer, snapshot)).start();

        endpoint = OwnerEndpoint.serve(context.endpoint(), store, context.maxClients(), context.busyWait());
        LOG.info("event=start endpoint={} display={} generation={} max_clients={}",
            endpoint.path(), context.display(), composer.lastGeneration(), context.maxClients());
    }

    /** On the reader's thread: compose, publish, remember the number. */
    private void publish(final DesktopSceneComposer composer, final DesktopSnapshot snapshot) {
        composer.accept(snapshot);
        try {
            generationFile.write(composer.lastGeneration());
        } catch (final IOException e) {
            LOG.warn("event=generation_file_write_failed path={} error={}", context.generationFile(), e.toString());
        }
    }

    public Path endpoint() {
        return context.endpoint();
    }

    /** The newest generation published (any thread). */
    public long lastGeneration() {
        return store.lastGeneration();
    }

    public OwnerRunner runner() {
        return endpoint.runner();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        final long last = store == null ? 0 : store.lastGeneration();
        if (endpoint != null) {
            try {
                endpoint.close();
            } catch (final IOException e) {
                LOG.warn("event=endpoint_close_failed endpoint={} error={}", context.endpoint(), e.toString());
            }
        }
        if (reader != null) {
            reader.close();
        }
        if (generationFile != null) {
            try {
                generationFile.write(last);
                generationFile.close();
            } catch (final IOException e) {
                LOG.warn("event=generation_file_close_failed error={}", e.toString());
            }
        }
        if (store != null && (endpoint == null || !endpoint.runner().thread().isAlive())) {
            store.close(); // off-heap packets: only once nothing can read them
        }
        LOG.info("event=stop endpoint={} generation={}", context.endpoint(), last);
    }
}
