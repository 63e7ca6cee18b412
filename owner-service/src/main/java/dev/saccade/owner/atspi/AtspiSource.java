package dev.saccade.owner.atspi;

import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlag;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.matchrules.DBusMatchRuleBuilder;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.messages.constants.MessageTypes;
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
 * after {@link #requestRefresh()}. Events come in bursts: a pass starts once no event came for the
 * quiet period, or the burst has lasted the maximum. Applications appearing or leaving (registry
 * events, {@code NameOwnerChanged}) make the pass list the registry again.
 *
 * <p>A pass refreshes its applications in parallel (see {@link AppRefresh}): each has a deadline,
 * and the pass one too, so a hung application delays nothing but itself, and keeps its last nodes,
 * marked incomplete. A pass that changed nothing delivers nothing. at-spi2-atk applications (GTK)
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
 */
public final class AtspiSource implements AutoCloseable {
    public static final String THREAD_NAME = "saccade-atspi";
    /** How long {@link #close()} waits for the thread. */
    public static final long CLOSE_TIMEOUT_MS = 2_000;

    /** Events we have applications emit (at-spi2-atk and Qt emit only what someone registered). */
    static final String[] REGISTERED_EVENTS = {
        "object:children-changed", "object:state-changed", "object:property-change", "object:text-changed",
        "window:activate", "window:deactivate", "window:create", "window:destroy"};
    private static final String EVENT_OBJECT = "org.a11y.atspi.Event.Object";
    private static final String EVENT_WINDOW = "org.a11y.atspi.Event.Window";

    private static final Logger LOG = LoggerFactory.getLogger(AtspiSource.class);
    private static final Object DISCOVERY = new Object();

    private final AtspiSourceContext context;
    private final Consumer<AccessibilitySnapshot> listener;
    private final long quietNs;
    private final long coalesceMaxNs;
    private final long periodicNs;

    // Written by any thread, read by the source thread.
    private final ConcurrentLinkedQueue<CallBatch> completed = new ConcurrentLinkedQueue<>();
    private final Set<String> dirtyApps = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean allDirty = new AtomicBoolean(true);
    private final AtomicBoolean appsChanged = new AtomicBoolean(true);
    /** nanoTime of the first event of the burst not yet refreshed; 0 if none. */
    private final AtomicLong burstStartNs = new AtomicLong();
    private volatile long lastEventNs;
    private final AtomicReference<CompletableFuture<AccessibilitySnapshot>> nextPass = new AtomicReference<>();
    private final AtomicLong eventCount = new AtomicLong();
    private final AtomicLong listenerFailures = new AtomicLong();
    private final Consumer<CallBatch> onBatchComplete = this::batchCompleted;

    // Written by start()/close() (any thread).
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean running;
    private volatile Thread thread;

    // Written by the source thread only; read by any.
    private volatile AtspiBus bus;
    private volatile String busAddress;
    private volatile String connectionError;
    private volatile Set<String> knownBusNames = Set.of();
    private volatile AccessibilitySnapshot latest;
    private volatile AtspiDiagnostics diagnostics;

    // Source thread only.
    private final List<KnownApp> apps = new ArrayList<>();
    /** Peer-to-peer connections (null when off or not connected). */
    private PeerLink peers;
    private long sequence;
    private long passes;
    private long lastPassNs;
    private long lastPassDurationNs;

    /**
     * @param context concluded here if the caller did not
     * @param listener receives each changed snapshot on the source thread
     */
    public AtspiSource(final AtspiSourceContext context, final Consumer<AccessibilitySnapshot> listener) {
        if (!context.isConcluded()) {
            context.conclude();
        }
        this.context = context;
        this.listener = Objects.requireNonNull(listener, "listener");
        this.quietNs = TimeUnit.MILLISECONDS.toNanos(context.coalesceQuietMs());
        this.coalesceMaxNs = TimeUnit.MILLISECONDS.toNanos(context.coalesceMaxMs());
        this.periodicNs = TimeUnit.MILLISECONDS.toNanos(context.periodicRefreshMs());
        this.diagnostics = new AtspiDiagnostics(false, null, null, List.of(), 0, 0, 0);
    }

    /** Starts the source thread and returns at once; the first snapshot follows the first pass. */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("AtspiSource started twice");
        }
        running = true;
        final Thread t = new Thread(this::run, THREAD_NAME);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Stops the thread and closes the bus connection; waits up to {@link #CLOSE_TIMEOUT_MS}. */
    @Override
    public void close() {
        running = false;
        final Thread t = thread;
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
        // The flag first: a pass that takes the future has then surely seen the flag too.
        allDirty.set(true);
        CompletableFuture<AccessibilitySnapshot> pass = nextPass.get();
        while (pass == null) {
            final CompletableFuture<AccessibilitySnapshot> fresh = new CompletableFuture<>();
            pass = nextPass.compareAndSet(null, fresh) ? fresh : nextPass.get();
        }
        noteEvent();
        return pass;
    }

    /**
     * As {@link #requestRefresh()} without a future: for the owner thread, which must neither
     * allocate nor loop on a CAS (after each input plan, the screen likely changed).
     */
    public void markDirty() {
        allDirty.set(true);
        noteEvent();
    }

    /** The last snapshot delivered, or null before the first. */
    public AccessibilitySnapshot latest() {
        return latest;
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
        if (node.hasFlag(TargetFlag.SECURE)) {
            // Typing into a password field is the agent's business; pressing it "activates" it,
            // which in GTK submits the dialog. Refuse rather than guess.
            return CompletableFuture.completedFuture(ResultCode.PLATFORM_PERMISSION);
        }
        return invoke(node.busName(), node.objectPath(), 0, deadlineNs);
    }

    /** {@link #invoke(AccessibilityNode, long)} by address, with an explicit action index. */
    public CompletableFuture<Integer> invoke(
        final String busName, final String objectPath, final int actionIndex, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        final AtspiBus b = bus;
        if (b == null || !b.isConnected()) {
            result.complete(ResultCode.PLATFORM_BACKEND);
            return result;
        }
        final long remainingNs = deadlineNs - System.nanoTime();
        if (remainingNs <= 0) {
            result.complete(ResultCode.PLATFORM_TIMEOUT);
            return result;
        }
        result.completeOnTimeout(ResultCode.PLATFORM_TIMEOUT, remainingNs, TimeUnit.NANOSECONDS);
        final Reply.Sink onDone = call -> {
            if (call.failed()) {
                result.complete(platformCode(call.errorName()));
                return;
            }
            result.complete(Boolean.TRUE.equals(call.value()) ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_BACKEND);
            // The action changed something (or will): refresh the application without waiting for its events.
            markDirty(busName);
        };
        final Reply.Sink onCount = call -> {
            if (result.isDone()) {
                return;
            }
            if (call.failed()) {
                result.complete(platformCode(call.errorName()));
                return;
            }
            final long count = AtspiCall.asLong(call.value(), 0);
            if (count <= actionIndex) {
                result.complete(ResultCode.PLATFORM_UNSUPPORTED);
                return;
            }
            sendOrFail(result, b, busName, objectPath, AtspiBus.ACTION, "DoAction", "i", onDone, actionIndex);
        };
        // NActions first: DoAction on an object without that action just answers false.
        sendOrFail(result, b, busName, objectPath, AtspiBus.PROPERTIES, "Get", "ss", onCount, AtspiBus.ACTION, "NActions");
        return result;
    }

    /**
     * Reads a node's text content now (at most the text limit), off the caller's thread. Never
     * reads a SECURE node: completes with "".
     */
    public CompletableFuture<String> readText(final AccessibilityNode node, final long deadlineNs) {
        final CompletableFuture<String> result = new CompletableFuture<>();
        if (node.hasFlag(TargetFlag.SECURE)) {
            result.complete("");
            return result;
        }
        final AtspiBus b = bus;
        final long remainingNs = deadlineNs - System.nanoTime();
        if (b == null || !b.isConnected() || remainingNs <= 0) {
            result.completeExceptionally(new IOException(b == null ? "not connected" : "deadline passed"));
            return result;
        }
        result.orTimeout(remainingNs, TimeUnit.NANOSECONDS);
        final Reply.Sink onText = call -> {
            if (call.failed()) {
                result.completeExceptionally(new IOException(call.errorText()));
            } else {
                result.complete(call.value() instanceof String s ? s : "");
            }
        };
        final Reply.Sink onCount = call -> {
            if (call.failed()) {
                result.completeExceptionally(new IOException(call.errorText()));
                return;
            }
            final int count = (int) Math.min(AtspiCall.asLong(call.value(), 0), context.maxTextChars());
            if (count <= 0) {
                result.complete("");
                return;
            }
            try {
                b.send(b.call(node.busName(), node.objectPath(), AtspiBus.TEXT, "GetText", "ii", onText, 0, 0, 0, count));
            } catch (final DBusException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        };
        try {
            b.send(b.call(node.busName(), node.objectPath(), AtspiBus.PROPERTIES, "Get", "ss", onCount, 0, 0,
                AtspiBus.TEXT, "CharacterCount"));
        } catch (final DBusException | RuntimeException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /** AT-SPI2's editable-text interface (PCP set_value). */
    static final String EDITABLE_TEXT = "org.a11y.atspi.EditableText";

    /**
     * Replaces a node's whole text ({@code EditableText.SetTextContents}) off the caller's thread:
     * PCP's {@code set_value} where the object is editable. Completes with a platform code as
     * {@link #invoke(AccessibilityNode, long)} does: PLATFORM_UNSUPPORTED when the object has no
     * EditableText interface or refuses, PLATFORM_PERMISSION for a SECURE node (never written
     * through the accessibility bus, as it is never read).
     */
    public CompletableFuture<Integer> setTextContents(final AccessibilityNode node, final String text, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        if (node.hasFlag(TargetFlag.SECURE)) {
            result.complete(ResultCode.PLATFORM_PERMISSION);
            return result;
        }
        final AtspiBus b = connectedOrComplete(result, deadlineNs);
        if (b == null) {
            return result;
        }
        final Reply.Sink onDone = call -> {
            if (call.failed()) {
                result.complete(platformCode(call.errorName()));
                return;
            }
            result.complete(Boolean.TRUE.equals(call.value()) ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_UNSUPPORTED);
            markDirty(node.busName());
        };
        sendOrFail(result, b, node.busName(), node.objectPath(), EDITABLE_TEXT, "SetTextContents", "s", onDone, text);
        return result;
    }

    /** AT-SPI2's value interface (PCP set_value on a slider or spin button). */
    static final String VALUE = "org.a11y.atspi.Value";

    /**
     * Sets a node's {@code Value.CurrentValue} property off the caller's thread: PCP's
     * {@code set_value} with a number. Completes with a platform code as
     * {@link #setTextContents} does (PLATFORM_UNSUPPORTED when the object has no Value).
     */
    public CompletableFuture<Integer> setCurrentValue(final AccessibilityNode node, final double value, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        final AtspiBus b = connectedOrComplete(result, deadlineNs);
        if (b == null) {
            return result;
        }
        final Reply.Sink onDone = call -> {
            result.complete(call.failed() ? platformCode(call.errorName()) : ResultCode.PLATFORM_OK);
            markDirty(node.busName());
        };
        sendOrFail(result, b, node.busName(), node.objectPath(), AtspiBus.PROPERTIES, "Set", "ssv", onDone, VALUE,
            "CurrentValue", new org.freedesktop.dbus.types.Variant<>(value));
        return result;
    }

    /** AT-SPI2's selection interface (PCP select). */
    static final String SELECTION = "org.a11y.atspi.Selection";
    /**
     * How many containers up {@link #selectInParent} looks for one that implements Selection: a
     * GTK 3 tree row's text is a renderer cell inside the row's cell, which is the tree's child.
     */
    static final int MAX_SELECTION_LEVELS = 3;

    /**
     * Selects a node in its container off the caller's thread: PCP's {@code select}. Asks the
     * application for the node's {@code Parent} and whether it implements Selection, climbing up
     * to {@link #MAX_SELECTION_LEVELS} containers to the first that does, then
     * {@code Selection.SelectChild} there with the {@code GetIndexInParent} of the child on the
     * node's path. Parent and index are read at the call: rows move, the snapshot's may be stale.
     * Completes with a platform code as {@link #setTextContents} does: PLATFORM_OK also when the
     * child was already selected; PLATFORM_UNSUPPORTED when no container implements Selection or
     * it refuses.
     */
    public CompletableFuture<Integer> selectInParent(final AccessibilityNode node, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        final AtspiBus b = connectedOrComplete(result, deadlineNs);
        if (b != null) {
            selectUp(result, b, node.busName(), node.objectPath(), MAX_SELECTION_LEVELS);
        }
        return result;
    }

    /** One level of {@link #selectInParent}: the parent of {@code path}, its interfaces, then select or climb. */
    private void selectUp(
        final CompletableFuture<Integer> result, final AtspiBus b, final String busName, final String path,
        final int levels) {
        final Reply.Sink onParent = parentCall -> {
            final String parentPath = AtspiCall.referencePath(parentCall.value());
            final String named = AtspiCall.referenceBusName(parentCall.value());
            if (parentCall.failed() || parentPath == null || parentPath.endsWith("/null")) {
                // "/org/a11y/atspi/null" is AT-SPI's no-object reference: the top, nothing selects it.
                result.complete(parentCall.failed() ? platformCode(parentCall.errorName()) : ResultCode.PLATFORM_UNSUPPORTED);
                return;
            }
            final String parentName = named == null || named.isEmpty() ? busName : named;
            final Reply.Sink onInterfaces = interfacesCall -> {
                if (interfacesCall.failed()) {
                    result.complete(platformCode(interfacesCall.errorName()));
                } else if (contains(interfacesCall.value(), SELECTION)) {
                    final Reply.Sink onIndex = indexCall -> {
                        final long index = AtspiCall.asLong(indexCall.value(), -1);
                        if (indexCall.failed() || index < 0) {
                            result.complete(indexCall.failed() ? platformCode(indexCall.errorName())
                                : ResultCode.PLATFORM_UNSUPPORTED);
                        } else {
                            sendSelectChild(result, b, parentName, parentPath, (int) index);
                        }
                    };
                    sendOrFail(result, b, busName, path, AtspiBus.ACCESSIBLE, "GetIndexInParent", null, onIndex);
                } else if (levels > 1) {
                    selectUp(result, b, parentName, parentPath, levels - 1);
                } else {
                    result.complete(ResultCode.PLATFORM_UNSUPPORTED);
                }
            };
            sendOrFail(result, b, parentName, parentPath, AtspiBus.ACCESSIBLE, "GetInterfaces", null, onInterfaces);
        };
        sendOrFail(result, b, busName, path, AtspiBus.PROPERTIES, "Get", "ss", onParent, AtspiBus.ACCESSIBLE, "Parent");
    }

    private static boolean contains(final Object names, final String name) {
        for (int i = 0, n = AtspiCall.length(names); i < n; i++) {
            if (name.equals(String.valueOf(AtspiCall.item(names, i)))) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code Selection.SelectChild(childIndex)} on the node itself (a list or tree that implements
     * Selection) off the caller's thread; completes as {@link #selectInParent} does.
     */
    public CompletableFuture<Integer> selectChild(final AccessibilityNode container, final int childIndex, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        final AtspiBus b = connectedOrComplete(result, deadlineNs);
        if (b != null) {
            sendSelectChild(result, b, container.busName(), container.objectPath(), childIndex);
        }
        return result;
    }

    /**
     * The bus, with {@code result} set to complete with PLATFORM_TIMEOUT at the deadline; null
     * after completing {@code result} when there is no bus or the deadline has passed.
     */
    private AtspiBus connectedOrComplete(final CompletableFuture<Integer> result, final long deadlineNs) {
        final AtspiBus b = bus;
        final long remainingNs = deadlineNs - System.nanoTime();
        if (b == null || !b.isConnected() || remainingNs <= 0) {
            result.complete(b == null || !b.isConnected() ? ResultCode.PLATFORM_BACKEND : ResultCode.PLATFORM_TIMEOUT);
            return null;
        }
        result.completeOnTimeout(ResultCode.PLATFORM_TIMEOUT, remainingNs, TimeUnit.NANOSECONDS);
        return b;
    }

    private void sendSelectChild(
        final CompletableFuture<Integer> result, final AtspiBus b, final String busName, final String path,
        final int childIndex) {
        final Reply.Sink onDone = call -> {
            if (call.failed()) {
                result.complete(platformCode(call.errorName()));
                return;
            }
            if (Boolean.TRUE.equals(call.value())) {
                result.complete(ResultCode.PLATFORM_OK);
                markDirty(busName);
                return;
            }
            // GTK answers false for a child that is selected already: that is done, not refused.
            final Reply.Sink onSelected = selected -> result.complete(!selected.failed() && Boolean.TRUE.equals(selected.value())
                ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_UNSUPPORTED);
            sendOrFail(result, b, busName, path, SELECTION, "IsChildSelected", "i", onSelected, childIndex);
        };
        sendOrFail(result, b, busName, path, SELECTION, "SelectChild", "i", onDone, childIndex);
    }

    private static void sendOrFail(
        final CompletableFuture<Integer> result, final AtspiBus b, final String busName, final String path,
        final String iface, final String member, final String signature, final Reply.Sink sink,
        final Object... args) {
        try {
            b.send(b.call(busName, path, iface, member, signature, sink, 0, 0, args));
        } catch (final DBusException | RuntimeException e) {
            // Not marshallable (a malformed path) or the connection just went away.
            result.complete(ResultCode.PLATFORM_BACKEND);
        }
    }

    /** The platform code of a D-Bus error answering an action. */
    static int platformCode(final String errorName) {
        if (AppRefresh.isVanished(errorName)) {
            return ResultCode.PLATFORM_NOT_FOUND;
        }
        if (AppRefresh.isUnsupported(errorName)) {
            return ResultCode.PLATFORM_UNSUPPORTED;
        }
        if ("org.freedesktop.DBus.Error.NoReply".equals(errorName) || "org.freedesktop.DBus.Error.Timeout".equals(errorName)
            || "org.freedesktop.DBus.Error.TimedOut".equals(errorName)) {
            return ResultCode.PLATFORM_TIMEOUT;
        }
        if ("org.freedesktop.DBus.Error.AccessDenied".equals(errorName)) {
            return ResultCode.PLATFORM_PERMISSION;
        }
        return ResultCode.PLATFORM_BACKEND;
    }

    // ================================================================ events (dbus-java threads)

    private void onSignal(final DBusSignal signal) {
        eventCount.incrementAndGet();
        final String iface = signal.getInterface();
        if (AtspiBus.DBUS.equals(iface)) {
            onNameOwnerChanged(signal);
            return;
        }
        final String sender = signal.getSource();
        if (sender != null && knownBusNames.contains(sender)) {
            markDirty(sender);
        } else {
            // The registry announcing an application, or an application we have not listed yet.
            appsChanged.set(true);
            noteEvent();
        }
    }

    private void onNameOwnerChanged(final DBusSignal signal) {
        try {
            final Object[] args = signal.getParameters();
            if (args != null && args.length == 3 && knownBusNames.contains(String.valueOf(args[0]))
                && String.valueOf(args[2]).isEmpty()) {
                appsChanged.set(true);
                noteEvent();
            }
        } catch (final DBusException ignore) {
            // reason: a NameOwnerChanged we cannot decode is not about our applications
        }
    }

    private void markDirty(final String busName) {
        dirtyApps.add(busName);
        noteEvent();
    }

    private void noteEvent() {
        final long now = System.nanoTime();
        lastEventNs = now;
        burstStartNs.compareAndSet(0, now);
        final Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    private void batchCompleted(final CallBatch batch) {
        completed.add(batch);
        final Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    // ================================================================ source thread

    private void run() {
        LOG.info("event=atspi-start thread={} maxNodesPerApp={} appTimeoutMs={} refreshTimeoutMs={}", THREAD_NAME,
            context.maxNodesPerApp(), context.appTimeoutMs(), context.refreshTimeoutMs());
        final long reconnectNs = TimeUnit.MILLISECONDS.toNanos(context.reconnectIntervalMs());
        while (running) {
            try {
                if (bus == null || !bus.isConnected()) {
                    if (bus != null) {
                        disconnected("connection lost");
                    }
                    if (!connect()) {
                        parkUntil(System.nanoTime() + reconnectNs);
                        continue;
                    }
                }
                final long now = System.nanoTime();
                if (!hasWork(now)) {
                    parkUntil(periodicNs > 0 ? lastPassNs + periodicNs : now + TimeUnit.SECONDS.toNanos(1));
                    continue;
                }
                awaitQuiet();
                if (running) {
                    pass();
                }
            } catch (final RuntimeException | Error e) {
                connectionError = e.toString();
                LOG.warn("event=atspi-pass-failed error={}", e.toString(), e);
                parkUntil(System.nanoTime() + reconnectNs);
            }
        }
        closeBus();
        final CompletableFuture<AccessibilitySnapshot> waiter = nextPass.getAndSet(null);
        if (waiter != null) {
            waiter.complete(latest);
        }
        LOG.info("event=atspi-stop passes={} events={} listenerFailures={}", passes, eventCount.get(),
            listenerFailures.get());
    }

    private boolean hasWork(final long now) {
        return allDirty.get() || appsChanged.get() || !dirtyApps.isEmpty()
            || (periodicNs > 0 && now - lastPassNs >= periodicNs);
    }

    /** Waits for the burst of events to go quiet, or to last the maximum. */
    private void awaitQuiet() {
        final long first = burstStartNs.get();
        if (first != 0) {
            while (running) {
                final long until = Math.min(lastEventNs + quietNs, first + coalesceMaxNs);
                if (System.nanoTime() - until >= 0) {
                    break;
                }
                parkUntil(until);
            }
        }
        // Events from here on start the next burst.
        burstStartNs.set(0);
    }

    private void parkUntil(final long deadlineNs) {
        final long waitNs = deadlineNs - System.nanoTime();
        if (waitNs > 0 && running) {
            LockSupport.parkNanos(this, waitNs);
        }
    }

    private boolean connect() {
        try {
            String address = context.accessibilityBusAddress();
            if (address == null || address.isBlank()) {
                address = AtspiBus.accessibilityBusAddress(context.sessionBusAddress(), context.connectTimeoutMs());
            }
            busAddress = address;
            final AtspiBus connected = AtspiBus.connect(address);
            bus = connected;
            subscribe(connected);
            registerEvents(connected);
            if (context.peerToPeer()) {
                peers = new PeerLink();
            }
            connectionError = null;
            allDirty.set(true);
            appsChanged.set(true);
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

    private void subscribe(final AtspiBus b) throws DBusException {
        b.subscribe(DBusMatchRuleBuilder.create().withType(MessageTypes.SIGNAL)
            .withInterface(EVENT_OBJECT).build(), this::onSignal);
        b.subscribe(DBusMatchRuleBuilder.create().withType(MessageTypes.SIGNAL)
            .withInterface(EVENT_WINDOW).build(), this::onSignal);
        b.subscribe(DBusMatchRuleBuilder.create().withType(MessageTypes.SIGNAL)
            .withSender(AtspiBus.DBUS).withInterface(AtspiBus.DBUS).withMember("NameOwnerChanged").build(), this::onSignal);
    }

    /** Tells the registry what we listen to; applications then emit those events. */
    private void registerEvents(final AtspiBus b) throws DBusException {
        final CallBatch batch = new CallBatch(DISCOVERY, onBatchComplete);
        for (int i = 0; i < REGISTERED_EVENTS.length; i++) {
            batch.add(b.call(AtspiBus.REGISTRY, AtspiBus.REGISTRY_PATH, "org.a11y.atspi.Registry", "RegisterEvent",
                "sass", batch, 0, i, REGISTERED_EVENTS[i], new String[0], ""));
        }
        b.send(batch);
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(context.connectTimeoutMs());
        drive(batch::isComplete, deadlineNs, List.of());
        if (!batch.calls.isEmpty() && batch.calls.get(0).failed()
            && AppRefresh.isUnsupported(batch.calls.get(0).errorName())) {
            // at-spi2-core before 2.46 knows only RegisterEvent(s).
            final CallBatch old = new CallBatch(DISCOVERY, onBatchComplete);
            for (int i = 0; i < REGISTERED_EVENTS.length; i++) {
                old.add(b.call(AtspiBus.REGISTRY, AtspiBus.REGISTRY_PATH, "org.a11y.atspi.Registry", "RegisterEvent", "s",
                    old, 0, i, REGISTERED_EVENTS[i]));
            }
            b.send(old);
            drive(old::isComplete, deadlineNs, List.of());
        }
    }

    private void disconnected(final String why) {
        LOG.warn("event=atspi-disconnect reason=\"{}\"", why);
        connectionError = why;
        closeBus();
        apps.clear();
        knownBusNames = Set.of();
        publish(System.nanoTime());
    }

    private void closeBus() {
        // The signal subscriptions are not closed one by one: each would be a blocking RemoveMatch
        // call, and disconnecting drops every match rule of the connection anyway.
        if (peers != null) {
            peers.close();
            peers = null;
        }
        for (final KnownApp app : apps) {
            app.peer = null;
        }
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
        final CompletableFuture<AccessibilitySnapshot> waiter = nextPass.getAndSet(null);
        final boolean all = allDirty.getAndSet(false);
        final boolean rediscover = appsChanged.getAndSet(false) || all;
        final Set<String> dirty = new HashSet<>();
        for (final Iterator<String> it = dirtyApps.iterator(); it.hasNext(); ) {
            dirty.add(it.next());
            it.remove();
        }
        completed.clear();  // late answers to an earlier pass
        if (rediscover) {
            discover(passDeadlineNs);
        }
        final AtspiBus b = bus;
        final List<AppRefresh> refreshes = new ArrayList<>();
        if (b != null) {
            final long appDeadlineNs = Math.min(passDeadlineNs,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(context.appTimeoutMs()));
            for (final KnownApp app : apps) {
                if (all || !app.probed || dirty.contains(app.busName)) {
                    final AppRefresh r = new AppRefresh(app, b, peers, onBatchComplete, context.maxNodesPerApp(),
                        context.maxTextChars(), System.nanoTime(), appDeadlineNs);
                    refreshes.add(r);
                    r.start();
                }
            }
            drive(() -> allDone(refreshes), passDeadlineNs, refreshes);
        }
        final long endNs = System.nanoTime();
        for (final AppRefresh r : refreshes) {
            if (!r.isDone()) {
                r.expire(endNs);
            }
            apply(r, endNs);
        }
        passes++;
        lastPassNs = endNs;
        lastPassDurationNs = endNs - startNs;
        publish(endNs);
        if (waiter != null) {
            waiter.complete(latest);
        }
    }

    private static boolean allDone(final List<AppRefresh> refreshes) {
        for (int i = 0, n = refreshes.size(); i < n; i++) {
            if (!refreshes.get(i).isDone()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Routes completed batches to their refreshes and expires refreshes at their deadlines until
     * {@code done} or the deadline; parks in between (woken by each completed batch).
     */
    private void drive(final BooleanSupplier done, final long deadlineNs, final List<AppRefresh> refreshes) {
        while (running) {
            long now = System.nanoTime();
            CallBatch batch;
            while ((batch = completed.poll()) != null) {
                if (batch.owner instanceof AppRefresh r) {
                    r.onBatch(batch, now);
                }
            }
            long wakeNs = deadlineNs;
            for (int i = 0, n = refreshes.size(); i < n; i++) {
                final AppRefresh r = refreshes.get(i);
                if (!r.isDone()) {
                    if (now - r.deadlineNs() >= 0) {
                        r.expire(now);
                    } else if (r.deadlineNs() - wakeNs < 0) {
                        wakeNs = r.deadlineNs();
                    }
                }
            }
            if (done.getAsBoolean()) {
                return;
            }
            now = System.nanoTime();
            if (now - deadlineNs >= 0) {
                return;
            }
            if (completed.isEmpty()) {
                LockSupport.parkNanos(this, wakeNs - now);
            }
        }
    }

    /** Lists the registry's applications: keeps the known ones, adds new, drops departed. */
    private void discover(final long deadlineNs) {
        final AtspiBus b = bus;
        if (b == null) {
            return;
        }
        final CallBatch batch = new CallBatch(DISCOVERY, onBatchComplete);
        try {
            batch.add(b.call(AtspiBus.REGISTRY, AtspiBus.ROOT_PATH, AtspiBus.ACCESSIBLE, "GetChildren", null, batch, 0, 0));
        } catch (final DBusException e) {
            throw new IllegalStateException("cannot build GetChildren", e);
        }
        b.send(batch);
        drive(batch::isComplete, deadlineNs, List.of());
        final Reply call = batch.calls.get(0);
        final Object[] reply = call.parameters();
        if (reply == null || reply.length == 0) {
            // The registry is restarting or hung: keep the applications we had, try again later.
            connectionError = "registry: " + (call.answered() ? call.errorText() : "no answer");
            appsChanged.set(true);
            return;
        }
        final Map<String, KnownApp> byName = new HashMap<>();
        for (final KnownApp app : apps) {
            byName.put(app.busName, app);
        }
        final String self = b.uniqueName();
        final List<KnownApp> listed = new ArrayList<>();
        final Object children = reply[0];
        for (int i = 0, n = AtspiCall.length(children); i < n; i++) {
            final Object ref = AtspiCall.item(children, i);
            final String name = AtspiCall.referenceBusName(ref);
            final String path = AtspiCall.referencePath(ref);
            if (name == null || path == null || name.isEmpty() || name.equals(self)) {
                continue;
            }
            final KnownApp known = byName.remove(name);
            listed.add(known != null && known.rootPath.equals(path) ? known : new KnownApp(name, path));
        }
        for (final KnownApp departed : byName.values()) {
            if (departed.peer != null) {
                departed.peer.close("left the registry");
                departed.peer = null;
            }
        }
        apps.clear();
        apps.addAll(listed);
        final Set<String> names = new HashSet<>();
        for (final KnownApp app : apps) {
            names.add(app.busName);
        }
        knownBusNames = Set.copyOf(names);
    }

    private void apply(final AppRefresh r, final long nowNs) {
        final KnownApp app = r.app();
        if (r.isGone()) {
            if (app.peer != null) {
                app.peer.close("gone");
                app.peer = null;
            }
            apps.remove(app);
            appsChanged.set(true);
            return;
        }
        if (app.peer != null && (app.peer.isClosed() || (r.usedPeer() && r.timedOut()))) {
            // Dead, or not answering: drop it with the calls it still holds; the bus serves until
            // a refresh succeeds again.
            app.peer.close("refresh timed out");
            app.peer = null;
            app.peerFailures++;
        } else if (app.peer == null && app.peerAddress != null && peers != null && r.nodes() != null && !r.timedOut()
            && app.peerFailures < KnownApp.MAX_PEER_FAILURES) {
            app.peer = peers.open(app.peerAddress);
        }
        final List<AccessibilityNode> nodes = r.nodes();
        if (nodes != null) {
            app.nodes = nodes;
            app.refreshedNs = nowNs;
        }
        app.complete = r.complete();
        app.error = r.error();
        app.lastRefreshDurationNs = r.durationNs();
        app.view = null;
    }

    private void publish(final long nowNs) {
        final List<AccessibleApplication> views = new ArrayList<>(apps.size());
        boolean incomplete = bus == null;
        for (final KnownApp app : apps) {
            views.add(app.view());
            incomplete |= !app.complete;
        }
        final AccessibilitySnapshot candidate = new AccessibilitySnapshot(sequence + 1, nowNs, incomplete, views);
        publishDiagnostics();
        if (latest != null && candidate.sameContent(latest)) {
            return;
        }
        sequence++;
        latest = candidate;
        try {
            listener.accept(candidate);
        } catch (final RuntimeException e) {
            if (listenerFailures.getAndIncrement() == 0) {
                LOG.warn("event=atspi-listener-failed sequence={}", candidate.sequence(), e);
            }
        }
    }

    private void publishDiagnostics() {
        final List<AtspiDiagnostics.App> infos = new ArrayList<>(apps.size());
        for (final KnownApp app : apps) {
            infos.add(app.diagnostics());
        }
        final AtspiBus b = bus;
        diagnostics = new AtspiDiagnostics(b != null && b.isConnected(), busAddress, connectionError, List.copyOf(infos),
            passes, eventCount.get(), lastPassDurationNs);
    }
}
