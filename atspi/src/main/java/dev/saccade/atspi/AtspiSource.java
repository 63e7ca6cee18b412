package dev.saccade.atspi;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.freedesktop.dbus.exceptions.DBusException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AT-SPI2 accessibility source: reads every registered application's accessible tree on its
 * own thread and hands each changed {@link AccessibilitySnapshot} to a listener; runs semantic
 * actions ({@code Action.DoAction}) for the owner.
 *
 * <p>The thread ({@value #THREAD_NAME}, daemon) connects to the accessibility bus (its address
 * from {@code org.a11y.Bus.GetAddress} on the session bus), subscribes to AT-SPI events and
 * registers them with the registry so applications emit them, then runs refresh passes: the first
 * reads every application; later ones only the applications that emitted events
 * (children/state/property/text changed, window activate/deactivate/create/destroy) or all of them
 * after {@link #requestRefresh()}. An application no event marked is not re-read for a
 * {@link #requestRefresh()}: one call per window checks that its windows stayed where they were
 * (windows move without AT-SPI events), and a full re-read follows only if one moved, the check
 * failed, or the last full read is older than {@link AtspiSourceContext#fullRefreshMs()} (the
 * budget for events a toolkit did not send). An event about one object's own facts (its text,
 * name, value or a state) re-reads only that object within the last tree ({@link AppRefresh},
 * TOUCH), within the same budget, and one about an object's children re-reads that object's
 * subtree and merges it into the last tree (SUBTREE, D61); input ({@link #markDirty()}) and
 * {@link #requestFullRefresh()} re-read everything, and input everything once more when it
 * settled ({@link AtspiSourceContext#inputSettleMs()}: what an application did about it need not
 * have come with events). Events come in bursts: a pass starts once no event came for the
 * quiet period, or the burst has lasted the maximum. Applications appearing or leaving (registry
 * events, {@code NameOwnerChanged}) make the pass list the registry again.
 *
 * <p>A pass refreshes its applications in parallel (see {@link AppRefresh}): each has a deadline,
 * and the pass one too, so a hung application delays nothing but itself, and keeps its last nodes,
 * marked incomplete; it is read again 250 ms later (doubling up to 8 s while it keeps missing its
 * deadline), not only at its next event. A pass that changed nothing delivers nothing. at-spi2-atk applications (GTK)
 * are refreshed over a peer-to-peer connection to their own D-Bus server once the first refresh
 * found it ({@link PeerLink}, its own I/O thread {@value PeerLink#THREAD_NAME}); a peer that fails or
 * times out is dropped and the bus serves until a refresh succeeds again.
 *
 * <p>Budget: at most {@link AtspiSourceContext#maxNodesPerApp()} nodes per application per
 * refresh (the first ones in canonical order; breadth-first for walked applications); an
 * application cut there is incomplete, the others are not affected.
 *
 * <p>The listener runs on the source thread: it should hand the snapshot over and return. A
 * listener exception is counted, the first one logged. If the bus connection is lost, the source
 * delivers an empty incomplete snapshot and reconnects at the reconnect interval.
 *
 * <p>Thread safety: {@link #start()}, {@link #close()}, {@link #requestRefresh()},
 * {@link #invoke}, {@link #readText}, {@link #latest()} and {@link #diagnostics()} may be called
 * from any thread and never wait on the bus.
 *
 * <p>The parts: {@link RefreshSchedule} (events in, when a pass runs and what it covers),
 * {@link RefreshPasses} (the applications and their parallel refreshes), {@link SnapshotPublisher}
 * (the snapshot out) and {@link AtspiActions} (the action side); this class runs the thread and
 * the bus connection.
 */
public final class AtspiSource implements AutoCloseable {
    public static final String THREAD_NAME = "saccade-atspi";
    /** How long {@link #close()} waits for the thread. */
    public static final long CLOSE_TIMEOUT_MS = 2_000;

    /** Events we have applications emit (at-spi2-atk and Qt emit only what someone registered). */
    static final String[] REGISTERED_EVENTS = {
        "object:children-changed", "object:state-changed", "object:property-change", "object:text-changed",
        "window:activate", "window:deactivate", "window:create", "window:destroy"};

    private static final Logger LOG = LoggerFactory.getLogger(AtspiSource.class);

    private final AtspiSourceContext context;
    /** Events and requests in (any thread); when and what the next pass refreshes. */
    private final RefreshSchedule schedule;
    private final RefreshPasses passes;
    private final SnapshotPublisher publisher;
    private final AtspiActions actions;

    // Written by start() (any thread).
    private final AtomicBoolean started = new AtomicBoolean();

    // Written by the source thread only; read by any.
    private volatile AtspiBus bus;
    private volatile String busAddress;
    private volatile String connectionError;
    private volatile AtspiDiagnostics diagnostics;

    // Source thread only.
    /** Peer-to-peer connections (null when off or not connected). */
    private PeerLink peers;

    /**
     * @param context concluded here if the caller did not
     * @param listener receives each changed snapshot on the source thread
     */
    public AtspiSource(final AtspiSourceContext context, final Consumer<AccessibilitySnapshot> listener) {
        if (!context.isConcluded()) {
            context.conclude();
        }
        this.context = context;
        this.publisher = new SnapshotPublisher(listener);
        this.schedule = new RefreshSchedule(context);
        this.passes = new RefreshPasses(context, schedule);
        this.actions = new AtspiActions(() -> bus, schedule::markActed, context.maxTextChars());
        this.diagnostics = new AtspiDiagnostics(false, null, null, List.of(), 0, 0, 0);
    }

    /**
     * Tells {@code readNs} the time of each pass that found the applications as last published
     * (on the source thread): the published tree is current as of then, though no snapshot says so.
     */
    public AtspiSource onUnchanged(final java.util.function.LongConsumer readNs) {
        publisher.onUnchanged(readNs);
        return this;
    }

    /**
     * Whether the desktop has accessibility turned on ({@code org.a11y.Status.IsEnabled} on the
     * session bus, D50); null when the bus did not say within the timeout. Blocks the caller.
     */
    public static Boolean accessibilityEnabled(final String sessionBusAddress, final long timeoutMs)
        throws DBusException, IOException {
        return AtspiBus.accessibilityEnabled(sessionBusAddress, timeoutMs);
    }

    /** Starts the source thread and returns at once; the first snapshot follows the first pass. */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("AtspiSource started twice");
        }
        final Thread t = new Thread(this::run, THREAD_NAME);
        t.setDaemon(true);
        schedule.runOn(t);
        t.start();
    }

    /** Stops the thread and closes the bus connection; waits up to {@link #CLOSE_TIMEOUT_MS}. */
    @Override
    public void close() {
        schedule.stop();
        final Thread t = schedule.thread();
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        LockSupport.unpark(t);
        try {
            t.join(CLOSE_TIMEOUT_MS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Asks for a pass over every application (and the registry), coalesced with pending events:
     * for example when the X11 window list changed. The future completes with the snapshot after
     * that pass, delivered or not (a pass that changed nothing delivers nothing).
     */
    public CompletableFuture<AccessibilitySnapshot> requestRefresh() {
        return schedule.requestRefresh(false);
    }

    /**
     * As {@link #requestRefresh()}, but every application is re-read whole, events or not (for
     * {@code bench/run atspi} and for callers that know something changed without an event).
     */
    public CompletableFuture<AccessibilitySnapshot> requestFullRefresh() {
        return schedule.requestRefresh(true);
    }

    /**
     * As {@link #requestRefresh()} without a future: for the owner thread, which must neither
     * allocate nor loop on a CAS (after each input plan, the screen likely changed).
     */
    public void markDirty() {
        schedule.markAllDirty();
    }

    /** The last snapshot delivered, or null before the first. */
    public AccessibilitySnapshot latest() {
        return publisher.latest();
    }

    /**
     * {@link System#nanoTime()} of the last AT-SPI event, refresh request or input mark (0 before
     * the first): how long after an application's last change its scene came (bench/README.md,
     * "Real-desktop benchmarks").
     */
    public long lastEventNanos() {
        return schedule.lastEventNs();
    }

    /** Per-application state for {@code saccade doctor}, as of the last pass. */
    public AtspiDiagnostics diagnostics() {
        return diagnostics;
    }

    /**
     * Runs the node's default action ({@code Action.DoAction(0)}) off the caller's thread.
     *
     * @param deadlineNs {@link System#nanoTime()} by which the application must have answered
     * @return completes with a {@link ResultCode} platform code: PLATFORM_OK; PLATFORM_TIMEOUT;
     *     PLATFORM_NOT_FOUND (the object or application is gone); PLATFORM_UNSUPPORTED (no action);
     *     PLATFORM_PERMISSION (a secure target); PLATFORM_BACKEND (refused, or no bus). Dependent
     *     stages run on a dbus-java thread: use the async variants for real work.
     */
    public CompletableFuture<Integer> invoke(final AccessibilityNode node, final long deadlineNs) {
        return actions.invoke(node, deadlineNs);
    }

    /** {@link #invoke(AccessibilityNode, long)} by address, with an explicit action index. */
    public CompletableFuture<Integer> invoke(
        final String busName, final String objectPath, final int actionIndex, final long deadlineNs) {
        return actions.invoke(busName, objectPath, actionIndex, deadlineNs);
    }

    /** {@link #focusState}: the object can take the keyboard focus (AT-SPI's state bit). */
    public static final int FOCUSABLE = 1 << AtspiMapping.STATE_FOCUSABLE;
    /** {@link #focusState}: the object has the keyboard focus. */
    public static final int FOCUSED = 1 << AtspiMapping.STATE_FOCUSED;

    /**
     * Whether a node has the keyboard focus now, asked of its application off the caller's
     * thread: completes with the {@link #FOCUSABLE} and {@link #FOCUSED} bits, or a
     * negative platform code as {@link #invoke(AccessibilityNode, long)} does.
     */
    public CompletableFuture<Integer> focusState(final AccessibilityNode node, final long deadlineNs) {
        return actions.focusState(node, deadlineNs);
    }

    /**
     * Whether a node's application places its objects by where it last saw its window, which it
     * corrects only once the pointer moves over it, so that a pointer action aims again after
     * moving there (D54): LibreOffice ({@link AppProbe#isGuarded}), whose extents are screen
     * coordinates. Any thread.
     */
    public boolean aimsAfterMove(final AccessibilityNode node) {
        final AccessibilitySnapshot snapshot = latest();
        if (snapshot != null) {
            for (final AccessibleApplication app : snapshot.applications()) {
                if (app.busName().equals(node.busName())) {
                    return !app.windowRelative() && AppProbe.isGuarded(app.name());
                }
            }
        }
        return false;
    }

    /**
     * Where a node lies now, asked of its application off the caller's thread
     * ({@code Component.GetExtents}, screen coordinates): {x, y, width, height}, or null.
     */
    public CompletableFuture<int[]> extents(final AccessibilityNode node, final long deadlineNs) {
        return actions.extents(node, deadlineNs);
    }

    /**
     * Reads a node's text content now (at most the text limit), off the caller's thread. Never
     * reads a SECURE node: completes with "".
     */
    public CompletableFuture<String> readText(final AccessibilityNode node, final long deadlineNs) {
        return actions.readText(node, deadlineNs);
    }

    /**
     * Replaces a node's whole text ({@code EditableText.SetTextContents}) off the caller's thread:
     * PCP's {@code set_value} where the object is editable. Completes with a platform code as
     * {@link #invoke(AccessibilityNode, long)} does: PLATFORM_UNSUPPORTED when the object has no
     * EditableText interface or refuses, PLATFORM_PERMISSION for a SECURE node (never written
     * through the accessibility bus, as it is never read).
     */
    public CompletableFuture<Integer> setTextContents(final AccessibilityNode node, final String text, final long deadlineNs) {
        return actions.setTextContents(node, text, deadlineNs);
    }

    /**
     * Fills a node: replaces its whole text as {@link #setTextContents} does, then reads it back
     * whole ({@code Text.GetText(0, -1)}) off the caller's thread: the agent ABI's TEXT with FILL
     * (D48). Completes with PLATFORM_OK only when the application holds exactly {@code text}
     * afterwards, PLATFORM_UNSUPPORTED when it holds another text or refuses, PLATFORM_PERMISSION
     * for a SECURE node.
     */
    public CompletableFuture<Integer> fillText(final AccessibilityNode node, final String text, final long deadlineNs) {
        return actions.fillText(node, text, deadlineNs);
    }

    /**
     * Sets a node's {@code Value.CurrentValue} property off the caller's thread: PCP's
     * {@code set_value} with a number. Completes with a platform code as
     * {@link #setTextContents} does (PLATFORM_UNSUPPORTED when the object has no Value).
     */
    public CompletableFuture<Integer> setCurrentValue(final AccessibilityNode node, final double value, final long deadlineNs) {
        return actions.setCurrentValue(node, value, deadlineNs);
    }

    /**
     * Selects a node in its container off the caller's thread: PCP's {@code select}. Asks the
     * application for the node's {@code Parent} and whether it implements Selection, climbing up
     * to {@link AtspiActions#MAX_SELECTION_LEVELS} containers to the first that does, then
     * {@code Selection.SelectChild} there with the {@code GetIndexInParent} of the child on the
     * node's path. Parent and index are read at the call: rows move, the snapshot's may be stale.
     * Completes with a platform code as {@link #setTextContents} does: PLATFORM_OK also when the
     * child was already selected; PLATFORM_UNSUPPORTED when no container implements Selection or
     * it refuses.
     */
    public CompletableFuture<Integer> selectInParent(final AccessibilityNode node, final long deadlineNs) {
        return actions.selectInParent(node, deadlineNs);
    }

    /**
     * {@code Selection.SelectChild(childIndex)} on the node itself (a list or tree that implements
     * Selection) off the caller's thread; completes as {@link #selectInParent} does.
     */
    public CompletableFuture<Integer> selectChild(final AccessibilityNode container, final int childIndex, final long deadlineNs) {
        return actions.selectChild(container, childIndex, deadlineNs);
    }

    // ================================================================ source thread

    private void run() {
        LOG.info("event=atspi-start thread={} maxNodesPerApp={} appTimeoutMs={} refreshTimeoutMs={}", THREAD_NAME,
            context.maxNodesPerApp(), context.appTimeoutMs(), context.refreshTimeoutMs());
        final long reconnectNs = TimeUnit.MILLISECONDS.toNanos(context.reconnectIntervalMs());
        while (schedule.isRunning()) {
            try {
                if (bus == null || !bus.isConnected()) {
                    if (bus != null) {
                        disconnected("connection lost");
                    }
                    if (!connect()) {
                        schedule.parkUntil(System.nanoTime() + reconnectNs);
                        continue;
                    }
                }
                final long now = System.nanoTime();
                // a carried read (D67) is driven by passes until it ends, events or not
                if (!schedule.hasWork(now, passes.lastPassNs()) && !passes.hasCarried()) {
                    schedule.parkIdle(now, passes.lastPassNs());
                    continue;
                }
                schedule.awaitQuiet();
                if (schedule.isRunning()) {
                    pass();
                }
            } catch (final RuntimeException | Error e) {
                connectionError = e.toString();
                LOG.warn("event=atspi-pass-failed error={}", e.toString(), e);
                schedule.parkUntil(System.nanoTime() + reconnectNs);
            }
        }
        closeBus();
        final CompletableFuture<AccessibilitySnapshot> waiter = schedule.takeWaiter();
        if (waiter != null) {
            waiter.complete(publisher.latest());
        }
        LOG.info("event=atspi-stop passes={} events={} listenerFailures={}", passes.passes(), schedule.eventCount(),
            publisher.listenerFailures());
    }

    private boolean connect() {
        try {
            String address = context.accessibilityBusAddress();
            if (address == null || address.isBlank()) {
                address = AtspiBus.accessibilityBusAddress(context.sessionBusAddress(), context.connectTimeoutMs(),
                    context.enableAccessibility());
            }
            busAddress = address;
            final AtspiBus connected = AtspiBus.connect(address);
            bus = connected;
            schedule.subscribe(connected);
            registerEvents(connected);
            if (context.peerToPeer()) {
                peers = new PeerLink();
            }
            connectionError = null;
            schedule.connected();
            LOG.info("event=atspi-connect address={} name={}", address, connected.uniqueName());
            return true;
        } catch (final DBusException | IOException | RuntimeException e) {
            final String why = "cannot reach the accessibility bus (" + e.getMessage()
                + "); fix: install at-spi2-core and run inside the desktop session (DBUS_SESSION_BUS_ADDRESS)";
            if (!why.equals(connectionError)) {
                LOG.warn("event=atspi-connect-failed error=\"{}\"", e.getMessage());
            }
            connectionError = why;
            closeBus();
            publishDiagnostics();
            return false;
        }
    }

    /** Tells the registry what we listen to; applications then emit those events. */
    private void registerEvents(final AtspiBus b) throws DBusException {
        final CallBatch batch = passes.discoveryBatch();
        for (int i = 0; i < REGISTERED_EVENTS.length; i++) {
            batch.add(b.call(AtspiBus.REGISTRY, AtspiBus.REGISTRY_PATH, "org.a11y.atspi.Registry", "RegisterEvent",
                "sass", batch, 0, i, REGISTERED_EVENTS[i], new String[0], ""));
        }
        b.send(batch);
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(context.connectTimeoutMs());
        passes.await(batch, deadlineNs);
        if (!batch.calls.isEmpty() && batch.calls.get(0).failed()
            && AppRefresh.isUnsupported(batch.calls.get(0).errorName())) {
            // at-spi2-core before 2.46 knows only RegisterEvent(s).
            final CallBatch old = passes.discoveryBatch();
            for (int i = 0; i < REGISTERED_EVENTS.length; i++) {
                old.add(b.call(AtspiBus.REGISTRY, AtspiBus.REGISTRY_PATH, "org.a11y.atspi.Registry", "RegisterEvent", "s",
                    old, 0, i, REGISTERED_EVENTS[i]));
            }
            b.send(old);
            passes.await(old, deadlineNs);
        }
    }

    private void disconnected(final String why) {
        LOG.warn("event=atspi-disconnect reason=\"{}\"", why);
        connectionError = why;
        closeBus();
        passes.clear();
        publish(System.nanoTime());
    }

    private void closeBus() {
        // The signal subscriptions are not closed one by one: each would be a blocking RemoveMatch
        // call, and disconnecting drops every match rule of the connection anyway.
        if (peers != null) {
            peers.close();
            peers = null;
        }
        passes.dropPeers();
        final AtspiBus b = bus;
        bus = null;
        if (b != null) {
            try {
                b.close();
            } catch (final RuntimeException ignore) {
                // reason: a connection that fails to close is dropped all the same
            }
        }
    }

    /** One refresh pass: registry if needed, then the dirty applications in parallel. */
    private void pass() {
        final long startNs = System.nanoTime();
        final long passDeadlineNs = startNs + TimeUnit.MILLISECONDS.toNanos(context.refreshTimeoutMs());
        final CompletableFuture<AccessibilitySnapshot> waiter = schedule.takeWaiter();
        final boolean full = schedule.takeFullDirty();
        final boolean all = schedule.takeAllDirty() || full;
        final boolean rediscover = schedule.takeAppsChanged() || all;
        final Set<String> dirty = schedule.takeDirtyApps();
        final Map<String, Set<String>> touched = schedule.takeTouched();
        final Map<String, Set<String>> subtrees = schedule.takeSubtrees();
        passes.clearLate();  // late answers to an earlier pass
        final AtspiBus b = bus;  // only this thread changes it
        if (rediscover && b != null) {
            final String registryError = passes.discover(b, passDeadlineNs);
            if (registryError != null) {
                connectionError = registryError;
            }
        }
        final long endNs = passes.refresh(b, peers, all, full, dirty, touched, subtrees, startNs,
            passDeadlineNs);
        publish(endNs);
        if (waiter != null) {
            waiter.complete(publisher.latest());
        }
    }

    private void publish(final long nowNs) {
        publishDiagnostics();
        publisher.publish(nowNs, bus == null, passes.apps());
    }

    private void publishDiagnostics() {
        final List<KnownApp> apps = passes.apps();
        final List<AtspiDiagnostics.App> infos = new ArrayList<>(apps.size());
        for (final KnownApp app : apps) {
            infos.add(app.diagnostics());
        }
        final AtspiBus b = bus;
        diagnostics = new AtspiDiagnostics(b != null && b.isConnected(), busAddress, connectionError, List.copyOf(infos),
            passes.passes(), schedule.eventCount(), passes.lastPassDurationNs());
    }
}
