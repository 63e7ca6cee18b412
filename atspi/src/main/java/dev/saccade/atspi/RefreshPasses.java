package dev.saccade.atspi;

import dev.saccade.desktop.AccessibilityNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.freedesktop.dbus.exceptions.DBusException;

/**
 * The applications the registry lists and the passes that refresh them, on the source thread:
 * the registry listing, one {@link AppRefresh} per dirty application run in parallel to its own
 * deadline, and what each result changes in the application's {@link KnownApp} (its nodes, its
 * peer connection, or its leaving). Completed batches come back from dbus-java's and the peer
 * link's threads through one queue that {@link #drive} routes, so the thread sleeps until a batch
 * or a deadline needs it.
 */
final class RefreshPasses {
    private static final Object DISCOVERY = new Object();
    /** More objects touched than this in one pass: reading the application whole is as cheap. */
    static final int MAX_TOUCHED = 32;

    private final AtspiSourceContext context;
    private final RefreshSchedule schedule;

    // Written by any thread, read by the source thread.
    /** How long after it registers an application with only frames counts as still building its tree. */
    static final long LATE_TREE_NS = TimeUnit.SECONDS.toNanos(15);
    private final ConcurrentLinkedQueue<CallBatch> completed = new ConcurrentLinkedQueue<>();
    private final Consumer<CallBatch> onBatchComplete = this::batchCompleted;

    // Source thread only.
    private final List<KnownApp> apps = new ArrayList<>();
    /**
     * Reads of guarded applications still running when their pass ended, by bus name: the next
     * passes drive them on to their own deadline (D67) instead of starting them over.
     */
    private final Map<String, AppRefresh> carried = new HashMap<>();
    /** The applications an event marked while their read was carried: read again once it ends. */
    private final Set<String> markedWhileCarried = new HashSet<>();
    private long passes;
    private long lastPassNs;
    private long lastPassDurationNs;

    RefreshPasses(final AtspiSourceContext context, final RefreshSchedule schedule) {
        this.context = context;
        this.schedule = schedule;
    }

    /** The applications as of the last pass. */
    List<KnownApp> apps() {
        return apps;
    }

    long passes() {
        return passes;
    }

    long lastPassNs() {
        return lastPassNs;
    }

    long lastPassDurationNs() {
        return lastPassDurationNs;
    }

    /** A batch of calls that no refresh owns (registry calls), completing through the queue. */
    CallBatch discoveryBatch() {
        return new CallBatch(DISCOVERY, onBatchComplete);
    }

    /** Drives until {@code batch} completes or the deadline passes. */
    void await(final CallBatch batch, final long deadlineNs) {
        drive(batch::isComplete, deadlineNs, List.of());
    }

    /** The connection is gone: no applications until the next listing. */
    void clear() {
        carried.clear();
        markedWhileCarried.clear();
        apps.clear();
        schedule.knownBusNames(Set.of());
        schedule.subtreeBusNames(Set.of());
    }

    /** The peer link was closed: the applications' connections went with it. */
    void dropPeers() {
        for (final KnownApp app : apps) {
            app.peer = null;
        }
    }

    /** Drops late answers to an earlier pass, but not those of a read it carried on (D67). */
    void clearLate() {
        if (carried.isEmpty()) {
            completed.clear();
        } else {
            completed.removeIf(batch -> !(batch.owner instanceof AppRefresh r && carried.get(r.app().busName) == r));
        }
    }

    /** A read of a guarded application runs on past its pass (D67): the source thread has work. */
    boolean hasCarried() {
        return !carried.isEmpty();
    }

    /**
     * Refreshes the applications {@code all} or {@code dirty} name (and the never probed) in
     * parallel, then applies the results.
     *
     * @return the pass's end, {@link System#nanoTime()}
     */
    long refresh(
        final AtspiBus b, final PeerLink peers, final boolean all, final boolean full, final Set<String> dirty,
        final Map<String, Set<String>> touched, final Map<String, Set<String>> subtrees, final long startNs,
        final long passDeadlineNs) {
        final List<AppRefresh> refreshes = new ArrayList<>();
        if (b != null) {
            final long nowNs = System.nanoTime();
            final long appDeadlineNs = Math.min(passDeadlineNs, nowNs + TimeUnit.MILLISECONDS.toNanos(context.appTimeoutMs()));
            final long guardedDeadlineNs = nowNs + TimeUnit.MILLISECONDS.toNanos(context.guardedTimeoutMs());
            for (final KnownApp app : apps) {
                final AppRefresh running = carried.get(app.busName);
                if (running != null && running.app() == app) {
                    refreshes.add(running); // on to its own deadline; a change meanwhile is read after it
                    if (full || dirty.contains(app.busName) || touched.containsKey(app.busName)
                        || subtrees.containsKey(app.busName)) {
                        markedWhileCarried.add(app.busName);
                    }
                    continue;
                }
                final Set<String> paths = touched.get(app.busName);
                final Set<String> parents = subtrees.get(app.busName);
                final boolean evented = paths != null || parents != null;
                final int[] touch = full || !app.probed || dirty.contains(app.busName) || !evented ? null
                    : parents == null ? touchable(app, paths, startNs) : subtreeRoots(app, parents, paths, startNs);
                final boolean marked = !app.probed || dirty.contains(app.busName) || (evented && touch == null);
                if (all || marked || touch != null) {
                    final boolean check = !full && !marked && touch == null && canCheck(app, startNs);
                    // a guarded walk takes two round trips a level (D47): it may run past the pass (D67)
                    final AppRefresh r = new AppRefresh(app, b, peers, onBatchComplete, context.maxNodesPerApp(),
                        context.maxTextChars(), context.collapse(), check, touch, parents != null, System.nanoTime(),
                        appDeadlineNs, guardedDeadlineNs);
                    refreshes.add(r);
                    r.start();
                }
            }
            carried.clear(); // those of departed applications go; the others are in the list
            drive(() -> allDone(refreshes), passDeadlineNs, refreshes);
        }
        final long endNs = System.nanoTime();
        for (final AppRefresh r : refreshes) {
            if (!r.isDone()) {
                if (endNs - r.deadlineNs() < 0) {
                    carry(r);
                    continue;
                }
                r.expire(endNs);
            }
            apply(r, endNs, peers);
            if (markedWhileCarried.remove(r.app().busName)) {
                schedule.markDirty(r.app().busName);
            }
        }
        final Set<String> subtreeApps = new HashSet<>();
        for (final KnownApp app : apps) {
            if (app.collection == KnownApp.COLLECTION_YES && !app.guarded) {
                subtreeApps.add(app.busName);
            }
        }
        schedule.subtreeBusNames(subtreeApps);
        passes++;
        lastPassNs = endNs;
        lastPassDurationNs = endNs - startNs;
        return endNs;
    }

    /**
     * A guarded application's read that its pass could not wait for (D67): it goes on beside the
     * next passes, which publish the other applications meanwhile, and is applied by the pass in
     * which it ends. Until then its scene is the last one, marked incomplete ("still being read"),
     * so no one takes an older view for a settled one. Started over each pass, a read of a Calc
     * window on a loaded machine was cut at the same depth every time and never reached its cells.
     */
    private void carry(final AppRefresh r) {
        final KnownApp app = r.app();
        carried.put(app.busName, r);
        if (app.complete) {
            app.complete = false;
            app.view = null;
        }
    }

    /**
     * Whether a request for {@code app} may check its windows instead of re-reading it: its last
     * read was whole and recent (within {@link AtspiSourceContext#fullRefreshMs()}), and no event
     * marked it since.
     */
    private boolean canCheck(final KnownApp app, final long nowNs) {
        final long budgetNs = TimeUnit.MILLISECONDS.toNanos(context.fullRefreshMs());
        return app.complete && !app.nodes.isEmpty() && app.fullReadNs != 0 && nowNs - app.fullReadNs < budgetNs;
    }

    /**
     * The indexes in {@code app}'s last tree of the objects events touched, if a TOUCH refresh
     * may re-read just those: its last read was whole and within the budget, and every path is
     * one of its objects, at most {@link #MAX_TOUCHED} of them. Null: read the application.
     */
    private int[] touchable(final KnownApp app, final Set<String> paths, final long nowNs) {
        final DraftTree tree = app.lastTree;
        if (tree == null || !canCheck(app, nowNs) || paths.size() > MAX_TOUCHED) {
            return null;
        }
        final int[] indexes = new int[paths.size()];
        int n = 0;
        for (final String path : paths) {
            final Integer i = tree.indexOf(path);
            if (i == null) {
                return null;
            }
            indexes[n++] = i;
        }
        return indexes;
    }

    /**
     * The indexes in {@code app}'s last tree, ascending, of the objects whose subtrees a SUBTREE
     * refresh re-reads (D61): those whose children changed and those touched, if all are objects
     * of the last whole read, which was complete, at most {@link #MAX_TOUCHED}, and the application
     * is bulk-listed; a guarded or walked one (D47, D49) is read whole. Null: read the application.
     * Where the last whole read is older than the budget (D19), the application is read whole in
     * the next pass, right after this one: the change its events announced does not wait for that.
     */
    private int[] subtreeRoots(final KnownApp app, final Set<String> parents, final Set<String> paths, final long nowNs) {
        final DraftTree tree = app.lastTree;
        if (tree == null || app.guarded || app.collection != KnownApp.COLLECTION_YES || !app.complete
            || app.nodes.isEmpty() || app.fullReadNs == 0) {
            return null;
        }
        final java.util.TreeSet<Integer> roots = new java.util.TreeSet<>();
        for (final Set<String> set : paths == null ? List.of(parents) : List.of(parents, paths)) {
            for (final String path : set) {
                final Integer i = tree.indexOf(path);
                if (i == null) {
                    return null;
                }
                roots.add(i);
            }
        }
        if (roots.size() > MAX_TOUCHED) {
            return null;
        }
        final int[] out = new int[roots.size()];
        int n = 0;
        for (final int i : roots) {
            out[n++] = i;
        }
        if (!canCheck(app, nowNs)) {
            schedule.markDirty(app.busName); // the budget for changes no event announced ran out
        }
        return out;
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
        while (schedule.isRunning()) {
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

    private void batchCompleted(final CallBatch batch) {
        completed.add(batch);
        schedule.wake();
    }

    /**
     * Lists the registry's applications: keeps the known ones, adds new, drops departed.
     *
     * @return null, or why the registry did not answer (then the applications stay as they were)
     */
    String discover(final AtspiBus b, final long deadlineNs) {
        final CallBatch batch = discoveryBatch();
        try {
            batch.add(b.call(AtspiBus.REGISTRY, AtspiBus.ROOT_PATH, AtspiBus.ACCESSIBLE, "GetChildren", null, batch, 0, 0));
        } catch (final DBusException e) {
            throw new IllegalStateException("cannot build GetChildren", e);
        }
        b.send(batch);
        await(batch, deadlineNs);
        final Reply call = batch.calls.get(0);
        final Object[] reply = call.parameters();
        if (reply == null || reply.length == 0) {
            // The registry is restarting or hung: keep the applications we had, try again later.
            schedule.markAppsChanged();
            return "registry: " + (call.answered() ? call.errorText() : "no answer");
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
        schedule.knownBusNames(Set.copyOf(names));
        return null;
    }

    /**
     * A browser or Electron application builds its tree after its window shows, once accessibility
     * is on (D50): read within {@link #LATE_TREE_NS} of its registration with nothing but its
     * frames, it is still building, so its view is incomplete and read again soon, not taken as
     * an empty window (Firefox held only its frame for 4 s).
     */
    static boolean stillBuilding(final KnownApp app, final long nowNs) {
        if (nowNs - app.registeredNs >= LATE_TREE_NS || app.shownNodes.isEmpty()) {
            return false;
        }
        for (final AccessibilityNode n : app.shownNodes) {
            if (n.role() != dev.saccade.protocol.Role.WINDOW && n.role() != dev.saccade.protocol.Role.DIALOG) {
                return false;
            }
        }
        return true;
    }

    private void apply(final AppRefresh r, final long nowNs, final PeerLink peers) {
        final KnownApp app = r.app();
        if (r.isGone()) {
            if (app.peer != null) {
                app.peer.close("gone");
                app.peer = null;
            }
            apps.remove(app);
            schedule.cancelRetry(app.busName);
            schedule.markAppsChanged();
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
        if (r.unchanged()) {
            app.checks++;
            return; // the windows stayed: the nodes, the view and the completeness stand
        }
        if (r.touchFailed()) {
            // An object vanished, or a state hid or revealed a subtree: read the application whole.
            app.lastTree = null;
            schedule.markDirty(app.busName);
            return;
        }
        if (r.timedOut() || r.error() != null) {
            app.lastTree = null;
        }
        if (r.timedOut()) {
            app.timeouts++;
        }
        final List<AccessibilityNode> nodes = r.nodes();
        if (nodes != null) {
            app.nodes = nodes; // the next refresh asks these for details with its listing
            app.nodesView = r.tree().builtView();
            if (r.detailed()) {
                app.shownNodes = r.shownNodes();
                app.refreshedNs = nowNs;
                if (r.subtree()) {
                    app.subtrees++;
                    app.lastTree = r.complete() ? r.tree() : null; // the merged tree: the next incremental read's
                } else if (r.touched()) {
                    app.touches++;
                } else if (!r.timedOut()) {
                    app.fullReadNs = nowNs;
                    app.fullReads++;
                    app.lastTree = r.complete() ? r.tree() : null;
                }
            }
            // else: the listing arrived but not the parents and extents the scene's filter needs
            // (DraftTree): the last filtered view stands, marked incomplete, not an unfiltered tree.
        }
        final boolean building = stillBuilding(app, nowNs);
        app.complete = r.complete() && !building;
        if (app.complete || r.completeAsDesigned() && !building) {
            // Read whole, or whole but for what a guarded walk leaves out by design (D66): a
            // retry of that re-read an idle soffice whole every 8 s.
            app.incompleteRetries = 0;
            schedule.cancelRetry(app.busName); // read whole by an event's pass meanwhile
        } else {
            // Cut by the deadline (a loaded machine, a slow or stopped application) or failed:
            // read it again later even if it sends no event, or its scene stays half read
            // (zero bounds, SOURCE_INCOMPLETE) until something else happens. The delay doubles
            // so a hung application costs a pass now and then, not a busy loop.
            schedule.retryLater(app.busName, app.incompleteRetries++);
        }
        app.error = r.error();
        app.lastRefreshDurationNs = r.durationNs();
        app.view = null;
    }
}
