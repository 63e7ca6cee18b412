package dev.saccade.pcp;

import dev.saccade.client.AgentClient;
import dev.saccade.client.DecimalU64;
import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.ReadExchange;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PCP events from the same scene updates agents see: a thread parks an observe on the agent
 * endpoint with AFTER_GENERATION (agent-abi.md §5.4), and diffs each newly published generation
 * against the previous one: {@code generation.published} always, {@code surface.focus_changed}
 * when the active window changes (one notification for the surface that lost focus, one for the
 * one that gained it), {@code surface.created}/{@code surface.destroyed} for window targets
 * that appear or vanish, {@code element.state_changed} for a target whose flags changed (at most
 * {@value #MAX_STATE_EVENTS} per generation).
 */
public final class SceneEvents implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SceneEvents.class);
    static final int MAX_STATE_EVENTS = 256;
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long RECONNECT_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Path endpoint;
    private final PcpCoreService core;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile AgentClient client;
    private volatile long published;
    private static final long BASELINE_WAIT_NS = TimeUnit.SECONDS.toNanos(3);
    private final Object baselineLock = new Object();
    /** Guarded by baselineLock: the thread holds a generation to diff the next one against. */
    private boolean baseline;

    public SceneEvents(final Path endpoint, final PcpCoreService core) {
        this.endpoint = endpoint;
        this.core = core;
        this.thread = new Thread(this::run, "saccade-pcp-events");
        this.thread.setDaemon(true);
    }

    public SceneEvents start() {
        thread.start();
        return this;
    }

    /** Generations seen and diffed. */
    public long generationsSeen() {
        return published;
    }

    /**
     * Called by PCP Core before subscribe.events answers: wakes the thread and waits (bounded)
     * until it holds a baseline generation, so every change after the answer is reported.
     */
    void subscribed() {
        LockSupport.unpark(thread);
        final long deadline = System.nanoTime() + BASELINE_WAIT_NS;
        synchronized (baselineLock) {
            while (!baseline && running) {
                final long leftNs = deadline - System.nanoTime();
                if (leftNs <= 0) {
                    return; // the agent endpoint is slow or down: events start when it answers
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(baselineLock, leftNs);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void baseline(final boolean ready) {
        synchronized (baselineLock) {
            baseline = ready;
            baselineLock.notifyAll();
        }
    }

    private void run() {
        final ObserveRequestBuilder request = AgentConnection.desktopObserve();
        final ReadExchange read = new ReadExchange();
        SceneView previous = null;
        long requestId = 1;
        while (running) {
            if (!core.hasSubscribers()) {
                // Nobody listens: hold no agent connection (it counts against the owner's client limit).
                closeClient();
                previous = null;
                baseline(false);
                LockSupport.parkNanos(WAIT_NS); // woken by subscribed(); the timeout rechecks
                continue;
            }
            try {
                if (client == null) {
                    client = AgentConnection.connect(endpoint, Duration.ofSeconds(5));
                    client.readTimeout(Duration.ofNanos(WAIT_NS + TimeUnit.SECONDS.toNanos(5)));
                }
                final SceneView next = AgentConnection.observe(client, request, read, requestId++,
                    previous == null ? 0 : previous.generation, WAIT_NS);
                if (next == null) {
                    continue; // no newer generation within the wait: park again
                }
                if (previous != null) {
                    diff(previous, next);
                }
                published++;
                previous = next;
                baseline(true);
            } catch (final IOException | RuntimeException e) {
                closeClient();
                if (running) {
                    LOG.debug("event=pcp_events_reconnect error={}", e.toString());
                    LockSupport.parkNanos(RECONNECT_NS); // back off before reconnecting, not a wait for a condition
                }
            }
        }
    }

    void diff(final SceneView before, final SceneView after) {
        if (!core.hasSubscribers()) {
            return;
        }
        final String generation = DecimalU64.format(after.generation);
        core.publish("generation.published", null, null, JsonTree.object("generation", generation));
        if (before.activeWindowId != after.activeWindowId) {
            if (before.activeWindowId != 0) {
                final String id = SceneView.surfaceId(before.activeWindowId);
                core.publish("surface.focus_changed", id, AgentScene.appId(before.foregroundPid),
                    JsonTree.object("surface_id", id, "focused", false, "generation", generation));
            }
            if (after.activeWindowId != 0) {
                final String id = SceneView.surfaceId(after.activeWindowId);
                core.publish("surface.focus_changed", id, AgentScene.appId(after.foregroundPid),
                    JsonTree.object("surface_id", id, "focused", true, "generation", generation));
            }
        }
        final Map<Long, SceneView.Target> beforeWindows = new HashMap<>();
        for (final SceneView.Target w : before.windows()) {
            beforeWindows.put(w.windowId, w);
        }
        for (final SceneView.Target w : after.windows()) {
            if (beforeWindows.remove(w.windowId) == null) {
                final String id = SceneView.surfaceId(w.windowId);
                core.publish("surface.created", id, null, JsonTree.object("surface_id", id, "title", w.text,
                    "generation", generation));
            }
        }
        for (final SceneView.Target gone : beforeWindows.values()) {
            final String id = SceneView.surfaceId(gone.windowId);
            core.publish("surface.destroyed", id, null, JsonTree.object("surface_id", id, "generation", generation));
        }
        int states = 0;
        for (final SceneView.Target t : after.targets) {
            final SceneView.Target old = before.byId.get(t.id);
            if (old != null && old.flags != t.flags && states++ < MAX_STATE_EVENTS) {
                final String surface = SceneView.surfaceId(t.windowId);
                core.publish("element.state_changed", surface, null, JsonTree.object("surface_id", surface,
                    "element_id", SceneView.elementId(t.id), "states", t.states(), "previous_states", old.states(),
                    "generation", generation));
            }
        }
    }

    private void closeClient() {
        final AgentClient c = client;
        client = null;
        if (c != null) {
            try {
                c.close();
            } catch (final IOException ignore) {
                // Broken or done already; the next subscriber reconnects.
            }
        }
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        closeClient(); // unblocks a parked observe
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
