package dev.saccade.pcp;

import dev.saccade.client.AgentClient;
import dev.saccade.client.IdleRelease;
import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.ReadExchange;
import dev.saccade.client.ReadFreshness;
import dev.saccade.client.ReadScope;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * PCP's connection to the owner's agent endpoint: connected on first use, dropped when a round
 * trip fails and connected again by the next call, with the request ids of its requests. Also
 * the whole-desktop observe that the scene and the event thread ({@link SceneEvents}) share.
 *
 * <p>Not thread-safe: its one owner is an {@link AgentScene}, whose monitor guards every call
 * (queries and {@link ActionInvocation} alike).
 */
final class AgentConnection {
    /** The owner's agent-endpoint limit is spec MAX_TARGETS; the response buffer is 1 MiB. */
    static final int MAX_TARGETS = AgentAbi.MAX_TARGETS;

    private final Path endpoint;
    private final Duration timeout;
    private final ObserveRequestBuilder observe = desktopObserve();
    private final ReadExchange read = new ReadExchange();
    /** Guarded by the owning {@link AgentScene}'s monitor; {@code null} until connected or after a failure. */
    private AgentClient client;
    /** Guarded by the owning {@link AgentScene}'s monitor. */
    private long requestId = 1;
    /** Scenes PCP answered from, newest last; guarded by the owning scene's monitor. */
    private final java.util.LinkedHashMap<Long, SceneView> kept = new java.util.LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(final Map.Entry<Long, SceneView> eldest) {
            return size() > KEPT_SCENES;
        }
    };
    static final int KEPT_SCENES = 8;
    /** PCP's one connection is given back after 30 s without a read or an action (agent-abi §1.1). */
    private final IdleRelease idle;

    /** @param lock the owning scene's monitor, which guards every call and the idle release. */
    AgentConnection(final Path endpoint, final Duration timeout, final Object lock) {
        this.endpoint = endpoint;
        this.timeout = timeout;
        this.idle = new IdleRelease("saccade-pcp-idle-release",
            TimeUnit.MILLISECONDS.toNanos(PcpConfiguration.idleReleaseMs()), lock, () -> client != null,
            () -> false, this::drop);
    }

    /**
     * Connects and says Hello asking for observe, pointer, keyboard and window (the owner's
     * policy), with the window facts and the semantic action kinds.
     */
    static AgentClient connect(final Path endpoint, final Duration timeout) throws IOException {
        final AgentClient c = AgentClient.connect(endpoint, timeout);
        try {
            c.readTimeout(timeout);
            // the window facts of query.surface and the semantic kinds of invoke.action (agent-abi §1.4, §2)
            c.hello(0, Capability.OBSERVE | Capability.POINTER | Capability.KEYBOARD | Capability.WINDOW,
                HelloFlag.WINDOW_FACTS | HelloFlag.SEMANTIC_ACTIONS);
            return c;
        } catch (final IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Observes the whole desktop (FUSED, every record): the latest generation, or with
     * {@code afterGeneration} &gt; 0 the first one newer than it, parked up to {@code waitNs}.
     *
     * @return the scene, or {@code null} when the wait ended without a newer generation.
     */
    static SceneView observe(final AgentClient c, final ObserveRequestBuilder r, final ReadExchange read,
        final long requestId, final long afterGeneration, final long waitNs) throws IOException {
        final int length = r.requestId(requestId)
            .freshness(afterGeneration > 0 ? new ReadFreshness(FreshnessPolicy.AFTER_GENERATION, afterGeneration, waitNs)
                : ReadFreshness.LATEST)
            .writeTo(c.requestStore(), c.requestOffset());
        final CompletionFlyweight completion = read.roundTrip(c, length, requestId, AgentAbi.OBSERVE_COMPLETION);
        final int result = completion.result();
        if (result == ResultCode.TIMEOUT) {
            return null;
        }
        if (result != ResultCode.OK) {
            throw new IOException("observe answered " + ResultCode.name(result));
        }
        return SceneView.decode(completion.bytes(), completion.offset());
    }

    /** The whole desktop (FUSED, every record the endpoint allows): PCP's one observe. */
    static ObserveRequestBuilder desktopObserve() {
        return new ObserveRequestBuilder().scope(ReadScope.DESKTOP).maximumTargets(MAX_TARGETS)
            .targetStride(TargetFlyweight.LENGTH).totalCapacity(ObserveRequestBuilder.MAX_CAPACITY);
    }

    /**
     * The latest generation; a failed round trip drops the connection and answers -32603. The
     * last {@value #KEPT_SCENES} scenes answered are kept: an invoke.action that names the
     * generation its caller planned against is resolved, and its refusal explained, against it.
     */
    SceneView scene() throws PcpError {
        try {
            final SceneView scene = observe(client(), observe, read, requestId++, 0, 0);
            kept.put(scene.generation, scene);
            return scene;
        } catch (final IOException e) {
            drop();
            throw new PcpError(PcpError.INTERNAL_ERROR, "The scene is unavailable: " + e.getMessage(),
                JsonTree.object("endpoint", endpoint.toString()));
        }
    }

    /**
     * The connected client, connecting first when there is none, it broke, or the service closed it
     * meanwhile (an idle connection evicted, an owner restart); every use restarts the idle count.
     */
    AgentClient client() throws IOException {
        if (client == null || client.peerClosed()) {
            drop();
            client = connect(endpoint, timeout);
        }
        idle.used(); // counted from the start of the use: the lock keeps the release out until it ends
        return client;
    }

    /** A scene answered from lately with {@code generation}, or null. */
    SceneView kept(final long generation) {
        return kept.get(generation);
    }

    long nextRequestId() {
        return requestId++;
    }

    /** Stops the idle release and closes the client: the scene is closing. */
    void close() {
        idle.close();
        drop();
    }

    /** Closes the client after a failure (or at the end); the next call reconnects. */
    void drop() {
        if (client != null) {
            try {
                client.close();
            } catch (final IOException ignore) {
                // Already broken; the next call reconnects.
            }
            client = null;
        }
    }
}
