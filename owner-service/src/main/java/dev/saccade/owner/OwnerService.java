package dev.saccade.owner;

import dev.saccade.atspi.AtspiSource;
import dev.saccade.atspi.AtspiSourceContext;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.TargetIds;
import dev.saccade.ipc.ListenerHandoff;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.owner.action.InputExecutor;
import dev.saccade.owner.action.NoInputExecutor;
import dev.saccade.owner.action.SemanticInvoker;
import dev.saccade.owner.helper.InputHelperLauncher;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.owner.source.DesktopSceneComposer;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running owner: the desktop owner of a user session. Starts, in order, the runtime
 * directory check, the scene store (numbered above any earlier owner), the desktop reader whose
 * first snapshot becomes the first generation, the endpoint, the acceptor and the owner
 * thread; {@link #close()} stops them in reverse, disconnecting (neutralizing) every client and
 * unlinking the endpoint only if it is still ours.
 */
public final class OwnerService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerService.class);

    /** The X reader's first snapshot takes milliseconds; 30 s means the display is unusable. */
    private static final long FIRST_GENERATION_TIMEOUT_NS = 30_000_000_000L;

    private final OwnerContext context;
    private SceneStore store;
    private GenerationFile generationFile;
    /** Closes the desktop reader (X11 or sway), null before it started. */
    private Runnable reader;
    private AtspiSource accessibility;
    private volatile dev.saccade.pixel.PixelSource pixels; // PIXEL targets; null when off
    private OwnerEndpoint endpoint;
    private InputHelperLauncher helper;
    private ListenerHandoff link;
    private boolean closed;
    private final Object persistLock = new Object();

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
        final long seed = SceneStore.seedGeneration(lastPublished);
        store = new SceneStore(OwnerContext.SCENE_PACKETS, context.maxTargets(), context.maxTextBytes(), seed);
        generationFile = new GenerationFile(context.generationFile());
        final DesktopSceneComposer composer = new DesktopSceneComposer(store, context.grid());
        if (context.accessibility()) {
            accessibility = new AtspiSource(new AtspiSourceContext().sessionBusAddress(context.sessionBusAddress()),
                semantic -> {
                    composer.acceptAccessibility(semantic);
                    persist(composer.lastGeneration());
                    final dev.saccade.pixel.PixelSource pixel = pixels;
                    if (pixel != null) {
                        pixel.accessibility(semantic);
                    }
                }).onUnchanged(readNs -> {
                    final dev.saccade.pixel.PixelSource pixel = pixels;
                    if (pixel != null) {
                        pixel.treeUnchanged(readNs); // a tree-less window that appeared since is now known tree-less
                    }
                });
        } else {
            LOG.warn("event=accessibility_off reason={}", context.sessionBusAddress() == null
                ? "no DBUS_SESSION_BUS_ADDRESS: only windows and grid cells are published" : "disabled");
        }
        // The pixel source captures through the display's backend: X11, or on wayland:SOCKET screencopy.
        pixels = PixelStart.start(context.display(), accessibility != null, composer, this::persist);
        reader = DesktopBackends.of(context.display(), context.sessionBusAddress())
            .start(context.display(), snapshot -> publish(composer, snapshot));
        if (accessibility != null) {
            accessibility.start();
        }

        InputExecutor executor = NoInputExecutor.INSTANCE;
        if (context.inputHelper()) {
            final byte[] nonce = context.externalHelperNonce();
            helper = nonce == null ? InputHelperLauncher.start(context.runtimeDirectory(), context.display())
                : InputHelperLauncher.external(context.runtimeDirectory(), context.display(), nonce);
            executor = helper.executor();
            final AtspiSource semantic = accessibility;
            if (semantic != null) {
                helper.executor().afterInput(semantic::markDirty);
            }
        }
        final AgentService agentService = new AgentService(store, executor, accessibility == null ? null : new SemanticInvoker() {
            @Override
            public boolean handles(final long targetId) {
                return TargetIds.namespace(targetId) == TargetIds.namespace(TargetIds.ACCESSIBILITY_NAMESPACE);
            }

            @Override
            public CompletableFuture<Integer> invoke(final long targetId, final long deadlineNs) {
                return OwnerService.this.invoke(targetId, deadlineNs);
            }

            @Override
            public CompletableFuture<Integer> focusState(final long targetId, final long deadlineNs) {
                return OwnerService.this.focusState(targetId, deadlineNs);
            }

            @Override
            public boolean aimsAfterMove(final long targetId) {
                final AtspiSource semantic = accessibility;
                final AccessibilityNode node = semantic == null ? null : node(semantic, targetId);
                return node != null && semantic.aimsAfterMove(node);
            }

            @Override
            public CompletableFuture<int[]> extents(final long targetId, final long deadlineNs) {
                final AtspiSource semantic = accessibility;
                final AccessibilityNode node = semantic == null ? null : node(semantic, targetId);
                return node == null ? CompletableFuture.completedFuture(null) : semantic.extents(node, deadlineNs);
            }

            @Override
            public CompletableFuture<Integer> secureFocus(final long deadlineNs) {
                return SecureFocus.ask(accessibility, deadlineNs);
            }

            @Override
            public CompletableFuture<Integer> setText(final long targetId, final String text, final long deadlineNs) {
                return onNode(targetId, (source, node) -> source.setTextContents(node, text, deadlineNs));
            }

            @Override
            public CompletableFuture<Integer> fillText(final long targetId, final String text, final long deadlineNs) {
                return onNode(targetId, (source, node) -> source.fillText(node, text, deadlineNs));
            }

            @Override
            public CompletableFuture<Integer> setNumber(final long targetId, final double value, final long deadlineNs) {
                return onNode(targetId, (source, node) -> source.setCurrentValue(node, value, deadlineNs));
            }

            @Override
            public CompletableFuture<Integer> select(final long targetId, final long deadlineNs) {
                return onNode(targetId, (source, node) -> source.selectInParent(node, deadlineNs));
            }

            @Override
            public CompletableFuture<Integer> selectChild(final long targetId, final int childIndex, final long deadlineNs) {
                return onNode(targetId, (source, node) -> source.selectChild(node, childIndex, deadlineNs));
            }
        });
        if (context.supervisorLink() != null) {
            // Supervised: the supervisor owns the path; we serve its listener once it says so.
            link = ListenerHandoff.connect(context.supervisorLink(), context.supervisorNonce());
            if (helper != null) {
                // before `ready`: the supervisor knows we have a helper to wait for when it reads `serving`
                helper.onInputChange(this::reportInput);
            }
            endpoint = OwnerEndpoint.prepare(store, context.maxClients(), agentService);
            // Ready means a first scene to answer with: a client handed to us must never find none.
            link.ready(awaitFirstGeneration(seed));
            endpoint.listen(link.awaitListener(context.endpoint()));
            link.serving();
            final Thread linkThread = new Thread(this::followLink, "saccade-supervisor-link");
            linkThread.setDaemon(true);
            linkThread.start();
        } else {
            endpoint = OwnerEndpoint.serve(context.endpoint(), store, context.maxClients(), context.busyWait(), agentService);
        }
        LOG.info("event=start endpoint={} display={} generation={} max_clients={}",
            endpoint.path(), context.display(), composer.lastGeneration(), context.maxClients());
    }

    /** Tells the supervisor whether a helper is attached: it reports ready only while one is. */
    private void reportInput(final boolean attached) {
        try {
            link.input(attached);
        } catch (final IOException e) {
            LOG.warn("event=supervisor_link_failed what=input error={}", e.toString());
        }
    }

    /** The first generation the reader published above {@code seed}; polls, off the owner thread. */
    private long awaitFirstGeneration(final long seed) throws IOException {
        final long deadlineNs = System.nanoTime() + FIRST_GENERATION_TIMEOUT_NS;
        while (store.lastGeneration() == seed) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new IOException("no first scene from display " + context.display() + " within 30 s");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
        return store.lastGeneration();
    }

    /**
     * The link thread: answers the supervisor's pings while the owner thread lives, and on
     * {@code drain} stops accepting, waits for the requests in hand, reports the newest
     * generation and lets the process exit. A lost link (the supervisor died) lets it exit too.
     */
    private void followLink() {
        try {
            for (String line = link.nextCommand(); line != null; line = link.nextCommand()) {
                if (ListenerHandoff.PING.equals(line)) {
                    if (endpoint.runner().thread().isAlive()) {
                        link.pong();
                    }
                } else if (ListenerHandoff.DRAIN.equals(line)) {
                    final boolean finished = endpoint.drain(context.drainTimeout());
                    final long last = store.lastGeneration();
                    LOG.info("event=handoff endpoint={} finished_in_hand={} generation={}", context.endpoint(), finished, last);
                    link.drained(last);
                    context.onHandedOff().run();
                    return;
                }
            }
            // Our supervisor died: leave too, so the one that replaces it finds the path stale
            // and binds it, instead of an orphan it cannot reach holding the endpoint.
            LOG.warn("event=supervisor_link_lost endpoint={} action=exit", context.endpoint());
            context.onHandedOff().run();
        } catch (final IOException e) {
            LOG.warn("event=supervisor_link_failed endpoint={} error={}", context.endpoint(), e.toString());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * On the reader's thread: compose, publish, remember the number; windows that moved or
     * changed move their accessible objects too, so the semantic tree is refreshed.
     */
    private void publish(final DesktopSceneComposer composer, final DesktopSnapshot snapshot) {
        composer.accept(snapshot);
        persist(composer.lastGeneration());
        final dev.saccade.pixel.PixelSource pixel = pixels;
        if (pixel != null) {
            pixel.desktop(snapshot);
        }
        final AtspiSource semantic = accessibility;
        if (semantic != null) {
            semantic.requestRefresh();
        }
    }

    private void persist(final long generation) {
        synchronized (persistLock) { // not `this`: close() holds it while the sources stop
            persistLocked(generation);
        }
    }

    private void persistLocked(final long generation) {
        try {
            if (generationFile != null) {
                generationFile.write(generation);
            }
        } catch (final IOException e) {
            LOG.warn("event=generation_file_write_failed path={} error={}", context.generationFile(), e.toString());
        }
    }

    /**
     * Semantic invoke: runs the default AT-SPI action of an accessible target, off the owner
     * thread, by {@code deadlineNs} (System.nanoTime). Completes with a platform code of
     * {@link ResultCode}: PLATFORM_NOT_FOUND when the target is not an accessible object of the
     * latest tree, PLATFORM_UNSUPPORTED without accessibility.
     */
    public CompletableFuture<Integer> invoke(final long targetId, final long deadlineNs) {
        final AtspiSource semantic = accessibility;
        if (semantic == null) {
            return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
        }
        final AccessibilityNode node = node(semantic, targetId);
        return node == null ? CompletableFuture.completedFuture(ResultCode.PLATFORM_NOT_FOUND) : semantic.invoke(node, deadlineNs);
    }

    /**
     * The keyboard focus of an accessible target, asked of its application now: completes with
     * {@link SemanticInvoker#FOCUSABLE} and {@link SemanticInvoker#FOCUSED} bits, or a negative
     * platform code as {@link #invoke} does.
     */
    public CompletableFuture<Integer> focusState(final long targetId, final long deadlineNs) {
        final AtspiSource semantic = accessibility;
        final AccessibilityNode node = semantic == null ? null : node(semantic, targetId);
        if (node == null) {
            return CompletableFuture.completedFuture(semantic == null ? ResultCode.PLATFORM_UNSUPPORTED : ResultCode.PLATFORM_NOT_FOUND);
        }
        return semantic.focusState(node, deadlineNs).thenApply(bits -> bits < 0 ? bits
            : ((bits & AtspiSource.FOCUSABLE) != 0 ? SemanticInvoker.FOCUSABLE : 0)
                | ((bits & AtspiSource.FOCUSED) != 0 ? SemanticInvoker.FOCUSED : 0));
    }

    /**
     * A semantic call (§5.8 SET_VALUE, SELECT) on the node of {@code targetId}; PLATFORM_NOT_FOUND
     * when the latest tree has none. The tree is marked dirty after it, as after input.
     */
    private CompletableFuture<Integer> onNode(final long targetId,
        final java.util.function.BiFunction<AtspiSource, AccessibilityNode, CompletableFuture<Integer>> call) {
        final AtspiSource semantic = accessibility;
        final AccessibilityNode node = semantic == null ? null : node(semantic, targetId);
        if (node == null) {
            return CompletableFuture.completedFuture(semantic == null ? ResultCode.PLATFORM_UNSUPPORTED : ResultCode.PLATFORM_NOT_FOUND);
        }
        return call.apply(semantic, node).whenComplete((code, failure) -> semantic.markDirty());
    }

    /** The node of the latest accessibility tree with {@code targetId}, or null. */
    private static AccessibilityNode node(final AtspiSource semantic, final long targetId) {
        final AccessibilitySnapshot latest = semantic.latest();
        if (latest != null) {
            final List<AccessibilityNode> nodes = latest.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i).targetId() == targetId) {
                    return nodes.get(i);
                }
            }
        }
        return null;
    }

    /** The pixel source, for diagnostics; null when off. */
    public dev.saccade.pixel.PixelSource pixels() {
        return pixels;
    }

    /** The accessibility source, for diagnostics; null when off. */
    public AtspiSource accessibility() {
        return accessibility;
    }

    /**
     * The agent endpoint's path as configured. A supervised owner listens on it only once the
     * supervisor handed the listener over; a client of the owner (PCP) connects to this path.
     */
    public Path endpoint() {
        return context.endpoint();
    }

    /** The concluded settings the owner runs with. */
    public OwnerContext context() {
        return context;
    }

    /** The newest generation published (any thread). */
    public long lastGeneration() {
        return store.lastGeneration();
    }

    /** The input helper, or null when off. */
    public InputHelperLauncher inputHelper() {
        return helper;
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
        if (link != null) {
            try {
                link.close();
            } catch (final IOException e) {
                LOG.warn("event=supervisor_link_close_failed error={}", e.toString());
            }
        }
        if (helper != null) {
            try {
                helper.close(); // SIGTERM: it releases everything it holds
            } catch (final IOException e) {
                LOG.warn("event=helper_close_failed error={}", e.toString());
            }
        }
        if (accessibility != null) {
            accessibility.close();
        }
        if (reader != null) {
            reader.run();
        }
        if (pixels != null) {
            pixels.close();
        }
        if (generationFile != null) {
            try {
                persist(last);
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
