package dev.saccade.atspi;

import dev.saccade.desktop.AccessibilitySnapshot;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.matchrules.DBusMatchRuleBuilder;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.messages.constants.MessageTypes;

/**
 * When the source thread runs its next refresh pass, and what the pass covers. AT-SPI events
 * (dbus-java threads), refresh requests and actions (any thread) mark applications dirty and wake
 * the thread; the thread waits for the burst of events to go quiet (or to last the maximum), then
 * takes the marks for one pass. Kept apart from the pass so the marking side, which runs on every
 * event, stays a few atomic writes and never touches the pass's state.
 */
final class RefreshSchedule {
    private static final String EVENT_OBJECT = "org.a11y.atspi.Event.Object";
    private static final String EVENT_WINDOW = "org.a11y.atspi.Event.Window";

    private final long quietNs;
    private final long coalesceMaxNs;
    private final long periodicNs;
    /** After input, a whole pass this long after the last of it; 0: none. */
    private final long settleNs;

    // Written by any thread, read by the source thread.
    private final Set<String> dirtyApps = ConcurrentHashMap.newKeySet();
    /**
     * Objects whose own facts an event said changed (text, name, description, value, a state
     * other than showing), by application: the next pass re-reads only these where it can (see
     * {@link AppRefresh}, "TOUCH"). Each set is changed only inside {@code compute} and taken with
     * {@code remove}, so no path is lost between an event and the pass.
     */
    private final ConcurrentHashMap<String, Set<String>> touched = new ConcurrentHashMap<>();
    /**
     * Objects whose children an event said changed, by application: the next pass re-reads only
     * their subtrees where it can (D61, {@link AppRefresh} "SUBTREE"); kept as {@link #touched}.
     */
    private final ConcurrentHashMap<String, Set<String>> subtrees = new ConcurrentHashMap<>();
    /** Children events name subtrees to re-read ({@link AtspiSourceContext#subtreeReads()}), else mark the application. */
    private final boolean subtreeReads;
    private final AtomicBoolean allDirty = new AtomicBoolean(true);
    /**
     * The next pass re-reads every application whole: set with the connection, after input and by
     * {@link AtspiSource#requestFullRefresh()}; a pass for {@link #requestRefresh()} alone only
     * checks the applications no event marked (see {@link AppRefresh}, "CHECK").
     */
    private final AtomicBoolean fullDirty = new AtomicBoolean(true);
    private final AtomicBoolean appsChanged = new AtomicBoolean(true);
    /** nanoTime of the first event of the burst not yet refreshed; 0 if none. */
    private final AtomicLong burstStartNs = new AtomicLong();
    private volatile long lastEventNs;
    private final AtomicReference<CompletableFuture<AccessibilitySnapshot>> nextPass = new AtomicReference<>();
    private final AtomicLong eventCount = new AtomicLong();
    /** nanoTime of the last input ({@link #markAllDirty()}); 0 before any. */
    private volatile long lastInputNs;
    /** Source thread only: the input whose settle pass was run (see {@link #dueSettle}). */
    private long settledInputNs;
    /** Source thread only: applications to read again at a time (nanoTime) though no event came. */
    private final java.util.Map<String, Long> retries = new java.util.HashMap<>();
    /** The first retry of an incomplete application waits this long; each next one twice as long, up to the cap. */
    static final long RETRY_FIRST_NS = TimeUnit.MILLISECONDS.toNanos(250);
    static final long RETRY_MAX_NS = TimeUnit.SECONDS.toNanos(8);

    // Written by start()/close() (any thread).
    private volatile boolean running;
    private volatile Thread thread;

    // Written by the source thread only; read by the event threads.
    private volatile Set<String> knownBusNames = Set.of();
    /**
     * The applications a subtree read can serve (bulk-listed, not guarded: D61); children events
     * of the others mark them as before, so their bursts coalesce as long as before.
     */
    private volatile Set<String> subtreeBusNames = Set.of();

    RefreshSchedule(final AtspiSourceContext context) {
        this.quietNs = TimeUnit.MILLISECONDS.toNanos(context.coalesceQuietMs());
        this.coalesceMaxNs = TimeUnit.MILLISECONDS.toNanos(context.coalesceMaxMs());
        this.periodicNs = TimeUnit.MILLISECONDS.toNanos(context.periodicRefreshMs());
        this.settleNs = TimeUnit.MILLISECONDS.toNanos(context.inputSettleMs());
        this.subtreeReads = context.subtreeReads();
    }

    /** The source thread is {@code t} from now on (not started yet): marks wake it. */
    void runOn(final Thread t) {
        running = true;
        thread = t;
    }

    /** The source thread is to end: every wait below returns. */
    void stop() {
        running = false;
    }

    boolean isRunning() {
        return running;
    }

    /** The source thread, or null before {@link #runOn}. */
    Thread thread() {
        return thread;
    }

    long eventCount() {
        return eventCount.get();
    }

    /** nanoTime of the last event, refresh request or input mark; 0 before the first. */
    long lastEventNs() {
        return lastEventNs;
    }

    /** Source thread: the applications whose children events name subtrees to re-read (D61). */
    void subtreeBusNames(final Set<String> names) {
        if (!names.equals(subtreeBusNames)) {
            subtreeBusNames = Set.copyOf(names);
        }
    }

    /** The applications a pass listed: events from them mark them, events from others list again. */
    void knownBusNames(final Set<String> names) {
        knownBusNames = names;
    }

    // ================================================================ marking (any thread)

    /** {@link AtspiSource#requestRefresh()}. */
    CompletableFuture<AccessibilitySnapshot> requestRefresh() {
        return requestRefresh(false);
    }

    /** {@link AtspiSource#requestRefresh()} ({@code full} false) or {@link AtspiSource#requestFullRefresh()}. */
    CompletableFuture<AccessibilitySnapshot> requestRefresh(final boolean full) {
        // The flags first: a pass that takes the future has then surely seen the flags too.
        if (full) {
            fullDirty.set(true);
        }
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
     * {@link AtspiSource#markDirty()}: after input, whose effects need not all come with events:
     * every application is read whole now, and again once the input settled (see {@link #dueSettle}).
     * Owner thread: a few volatile writes, no allocation.
     */
    void markAllDirty() {
        fullDirty.set(true);
        allDirty.set(true);
        lastInputNs = noteEvent();
    }

    void markDirty(final String busName) {
        dirtyApps.add(busName);
        noteEvent();
    }

    /** A semantic action changed {@code busName}: read it whole now and everything once the action settled. */
    void markActed(final String busName) {
        dirtyApps.add(busName);
        lastInputNs = noteEvent();
    }

    /** The next pass lists the registry again (no wake: for the source thread itself). */
    void markAppsChanged() {
        appsChanged.set(true);
    }

    /** A new connection: the next pass lists the registry and reads every application. */
    void connected() {
        fullDirty.set(true);
        allDirty.set(true);
        appsChanged.set(true);
    }

    /** Wakes the source thread (a batch it waits for completed). */
    void wake() {
        final Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    private long noteEvent() {
        final long now = System.nanoTime();
        lastEventNs = now;
        burstStartNs.compareAndSet(0, now);
        wake();
        return now;
    }

    // ================================================================ events (dbus-java threads)

    /** Routes the AT-SPI object and window events and the bus's NameOwnerChanged here. */
    void subscribe(final AtspiBus b) throws DBusException {
        b.subscribe(DBusMatchRuleBuilder.create().withType(MessageTypes.SIGNAL)
            .withInterface(EVENT_OBJECT).build(), this::onSignal);
        b.subscribe(DBusMatchRuleBuilder.create().withType(MessageTypes.SIGNAL)
            .withInterface(EVENT_WINDOW).build(), this::onSignal);
        b.subscribe(DBusMatchRuleBuilder.create().withType(MessageTypes.SIGNAL)
            .withSender(AtspiBus.DBUS).withInterface(AtspiBus.DBUS).withMember("NameOwnerChanged").build(), this::onSignal);
    }

    private void onSignal(final DBusSignal signal) {
        eventCount.incrementAndGet();
        final String iface = signal.getInterface();
        if (AtspiBus.DBUS.equals(iface)) {
            onNameOwnerChanged(signal);
            return;
        }
        final String sender = signal.getSource();
        if (sender != null && knownBusNames.contains(sender)) {
            final String parent = subtreeReads && subtreeBusNames.contains(sender) ? changedChildren(signal) : null;
            final String path = parent == null ? touchedObject(signal) : null;
            if (parent != null) {
                note(subtrees, sender, parent);
            } else if (path == null) {
                markDirty(sender);
            } else {
                note(touched, sender, path);
            }
        } else {
            // The registry announcing an application, or an application we have not listed yet.
            appsChanged.set(true);
            noteEvent();
        }
    }

    private void note(final ConcurrentHashMap<String, Set<String>> into, final String sender, final String path) {
        into.compute(sender, (name, paths) -> {
            final Set<String> set = paths == null ? new HashSet<>() : paths;
            set.add(path);
            return set;
        });
        noteEvent();
    }

    /**
     * The object whose children an event says changed ({@code ChildrenChanged}: the event's own
     * object is the parent, added or removed), or null for every other event (D61).
     */
    static String changedChildren(final DBusSignal signal) {
        return EVENT_OBJECT.equals(signal.getInterface()) && "ChildrenChanged".equals(signal.getName())
            ? signal.getPath() : null;
    }

    /**
     * The object an event is about, if the event changed only that object's own facts: text,
     * name, description or value, or a state other than showing, visible and defunct (those hide
     * or reveal a subtree, whose extents a refresh reads only where shown). Null for every other
     * event: children, windows, parents, roles; those re-read the application.
     */
    static String touchedObject(final DBusSignal signal) {
        if (!EVENT_OBJECT.equals(signal.getInterface())) {
            return null;
        }
        final String member = signal.getName();
        final String path = signal.getPath();
        if (path == null || member == null) {
            return null;
        }
        if ("TextChanged".equals(member)) {
            return path;
        }
        if (!"PropertyChange".equals(member) && !"StateChanged".equals(member)) {
            return null;
        }
        final String detail;
        try {
            final Object[] args = signal.getParameters();
            detail = args != null && args.length > 0 ? String.valueOf(args[0]) : "";
        } catch (final DBusException e) {
            return null;
        }
        if ("PropertyChange".equals(member)) {
            return "accessible-name".equals(detail) || "accessible-description".equals(detail)
                || "accessible-value".equals(detail) ? path : null;
        }
        return detail.isEmpty() || "showing".equals(detail) || "visible".equals(detail) || "defunct".equals(detail)
            ? null : path;
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

    // ================================================================ source thread

    /** Source thread: read {@code busName} again after a delay that doubles with {@code attempt}. */
    void retryLater(final String busName, final int attempt) {
        final long delay = RETRY_FIRST_NS << Math.min(attempt, 5);
        retries.put(busName, System.nanoTime() + Math.min(delay, RETRY_MAX_NS));
    }

    /** Source thread: no retry of {@code busName} is needed any more. */
    void cancelRetry(final String busName) {
        retries.remove(busName);
    }

    boolean hasWork(final long now, final long lastPassNs) {
        dueRetries(now);
        dueSettle(now);
        return allDirty.get() || appsChanged.get() || !dirtyApps.isEmpty() || !touched.isEmpty() || !subtrees.isEmpty()
            || (periodicNs > 0 && now - lastPassNs >= periodicNs);
    }

    /** Retries whose time came become dirty marks. */
    private void dueRetries(final long now) {
        for (final Iterator<java.util.Map.Entry<String, Long>> it = retries.entrySet().iterator(); it.hasNext(); ) {
            final java.util.Map.Entry<String, Long> e = it.next();
            if (now - e.getValue() >= 0) {
                dirtyApps.add(e.getKey());
                it.remove();
            }
        }
    }

    /**
     * The settle pass (D19): {@link #settleNs} after the last input, every application is read
     * whole once more, events or not. An application answers input when it gets to it (later on
     * a loaded machine than the pass input starts), and not all of its answer comes with events:
     * a relayout moves objects without one (no bounds events are registered), a toolkit reports
     * a moved window's new extents only once it processed the move. So the view is never behind
     * the application once the input settled, whatever the events said in between.
     */
    private void dueSettle(final long now) {
        final long input = lastInputNs;
        if (settleNs > 0 && input != settledInputNs && now - input >= settleNs) {
            settledInputNs = input; // input after the read above keeps its own settle pass due
            fullDirty.set(true);
            allDirty.set(true);
        }
    }

    /** Sleeps while there is no work: until the periodic refresh, a retry or the settle pass is due, or a second at most. */
    void parkIdle(final long now, final long lastPassNs) {
        long until = periodicNs > 0 ? lastPassNs + periodicNs : now + TimeUnit.SECONDS.toNanos(1);
        final long input = lastInputNs;
        if (settleNs > 0 && input != settledInputNs && input + settleNs - until < 0) {
            until = input + settleNs;
        }
        for (final long due : retries.values()) {
            if (due - until < 0) {
                until = due;
            }
        }
        parkUntil(until);
    }

    /**
     * Waits for the burst of events to go quiet, or to last the maximum. A burst of events that
     * only touched objects (see {@link #touchedObject}) lasts at most the quiet period: such a
     * pass re-reads a few objects, so a stream of them (text typed, a value animating) is followed
     * every 20 ms or so rather than every 100 ms.
     */
    void awaitQuiet() {
        final long first = burstStartNs.get();
        if (first != 0) {
            while (running) {
                final boolean touchesOnly = !allDirty.get() && !appsChanged.get() && dirtyApps.isEmpty();
                final long until = Math.min(lastEventNs + quietNs, first + (touchesOnly ? quietNs : coalesceMaxNs));
                if (System.nanoTime() - until >= 0) {
                    break;
                }
                parkUntil(until);
            }
        }
        // Events from here on start the next burst.
        burstStartNs.set(0);
    }

    void parkUntil(final long deadlineNs) {
        final long waitNs = deadlineNs - System.nanoTime();
        if (waitNs > 0 && running) {
            LockSupport.parkNanos(this, waitNs);
        }
    }

    /** The future of the pass about to run (null if nobody asked); taken before the marks. */
    CompletableFuture<AccessibilitySnapshot> takeWaiter() {
        return nextPass.getAndSet(null);
    }

    boolean takeAllDirty() {
        return allDirty.getAndSet(false);
    }

    /** Taken before {@link #takeAllDirty()}: a full mark always comes with the all mark. */
    boolean takeFullDirty() {
        return fullDirty.getAndSet(false);
    }

    boolean takeAppsChanged() {
        return appsChanged.getAndSet(false);
    }

    /** The objects events touched since the last pass, by application (see {@link #touchedObject}). */
    Map<String, Set<String>> takeTouched() {
        return take(touched);
    }

    /** The objects whose children changed since the last pass, by application (see {@link #changedChildren}). */
    Map<String, Set<String>> takeSubtrees() {
        return take(subtrees);
    }

    private static Map<String, Set<String>> take(final ConcurrentHashMap<String, Set<String>> from) {
        if (from.isEmpty()) {
            return Map.of();
        }
        final Map<String, Set<String>> taken = new HashMap<>();
        for (final String name : from.keySet()) {
            final Set<String> paths = from.remove(name);
            if (paths != null) {
                taken.put(name, paths);
            }
        }
        return taken;
    }

    /** The applications marked since the last pass. */
    Set<String> takeDirtyApps() {
        final Set<String> dirty = new HashSet<>();
        for (final Iterator<String> it = dirtyApps.iterator(); it.hasNext(); ) {
            dirty.add(it.next());
            it.remove();
        }
        return dirty;
    }
}
