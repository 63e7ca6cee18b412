package dev.saccade.atspi;

import static dev.saccade.atspi.AtspiMapping.CLASS_LABEL;
import static dev.saccade.atspi.AtspiMapping.CLASS_PASSWORD;
import static dev.saccade.atspi.AtspiMapping.I_ACTION;
import static dev.saccade.atspi.AtspiMapping.I_COMPONENT;
import static dev.saccade.atspi.AtspiMapping.I_TEXT;
import static dev.saccade.atspi.AtspiMapping.S_SHOWN;
import static dev.saccade.atspi.ReplyKind.K_ACTION_COUNT;
import static dev.saccade.atspi.ReplyKind.K_CHAR_COUNT;
import static dev.saccade.atspi.ReplyKind.K_EXTENTS;
import static dev.saccade.atspi.ReplyKind.K_PROPERTIES;
import static dev.saccade.atspi.ReplyKind.K_STATE;
import static dev.saccade.atspi.ReplyKind.K_TEXT;

import dev.saccade.desktop.AccessibilityNode;
import java.util.List;
import java.util.function.Consumer;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.types.UInt32;

/**
 * One refresh of one application's tree: a small state machine the source thread drives, one batch of pipelined
 * calls per stage ({@link RefreshStage} says what each asks), so no thread ever waits on this application alone and
 * a hung application costs nothing but its own deadline. Where a stage is cut by the deadline, the nodes are built
 * from what arrived and the application is marked incomplete; if not even its object list arrived, it keeps its last
 * nodes. Budget: {@code maxNodes} objects per application per refresh; beyond it the rest of the tree (canonical
 * order for BULK, breadth-first for WALK) is left out and the application is marked incomplete. Calls go through the
 * bus, or once the application's peer-to-peer connection is ready, over that (same calls, same answers, about half
 * the cost). Source thread only; the batches complete on dbus-java's reader thread or the peer link's I/O thread and
 * are routed back through the source's queue. The probe, the two listings and the incremental reads are their own
 * classes ({@link AppProbe}, {@link BulkListing}, {@link TreeWalk}, {@link IncrementalCheck}, {@link SubtreeMerge});
 * both listings fill one {@link DraftTree}, which maps the objects to nodes at the end. This class runs the stages,
 * asks the details and the text, and keeps the result.
 */
final class AppRefresh {
    private final KnownApp app;
    private final AtspiBus bus;
    private final CallChannel busChannel;
    /** Null when peer-to-peer connections are off. */
    private final PeerLink peers;
    /** Where this refresh's listing and details go: the peer connection if ready, else the bus. */
    private final CallChannel channel;
    private final Consumer<CallBatch> completion;
    private final int maxNodes;
    private final int maxTextChars;
    private final long startNs;
    /** Becomes {@link #guardedDeadlineNs} once a first read's probe finds the application guarded (D73). */
    private long deadlineNs;
    private final long guardedDeadlineNs;
    private final boolean check;
    /** TOUCH: the indexes in the last tree of the objects to re-read; null otherwise. */
    private final int[] touch;
    /** SUBTREE: {@link #touch} are the objects whose descendants are re-read (D61). */
    private final boolean subtree;
    private boolean touchFailed;

    /** The last tree for TOUCH, the merged one for SUBTREE once its listing is in, else a new one. */
    private DraftTree tree;
    /** SUBTREE: per object of the merged tree, whether its text is read again (null: every object's). */
    private boolean[] reread;
    private final BulkListing bulk;
    private final TreeWalk walk;
    private final IncrementalCheck incremental;
    private RefreshStage stage = RefreshStage.PROBE;
    private CallBatch current;
    private boolean walking;
    /** Guarded walk: the batch in flight lists the children of the drafts from {@link #factsFrom} on. */
    private boolean childrenAsked;
    /** Guarded walk: the first draft of the level whose facts were asked last. */
    private int factsFrom;
    private boolean timedOut;
    private boolean gone;
    /** CHECK found every window where it was: nothing was re-read. */
    private boolean unchanged;
    /** The details stage ended (or had nothing to ask): parents and extents are in. */
    private boolean detailed;
    private String error;
    private List<AccessibilityNode> nodes;
    private long finishedNs;

    AppRefresh(
        final KnownApp app, final AtspiBus bus, final PeerLink peers, final Consumer<CallBatch> completion,
        final int maxNodes, final int maxTextChars, final boolean collapse, final boolean check, final int[] touch,
        final boolean subtree, final long startNs, final long deadlineNs, final long guardedDeadlineNs) {
        this.app = app;
        this.bus = bus;
        this.busChannel = bus.channel(app.busName);
        this.peers = peers;
        this.channel = app.peer != null && app.peer.isReady() ? app.peer : busChannel;
        this.completion = completion;
        this.maxNodes = maxNodes;
        this.maxTextChars = maxTextChars;
        this.startNs = startNs;
        this.deadlineNs = app.guarded ? guardedDeadlineNs : deadlineNs;
        this.guardedDeadlineNs = guardedDeadlineNs;
        this.check = check;
        this.touch = touch;
        this.subtree = subtree;
        this.tree = touch != null ? app.lastTree : new DraftTree(app, maxTextChars, collapse);
        this.walking = touch != null && app.collection != KnownApp.COLLECTION_YES;
        this.bulk = new BulkListing(app, channel, tree, maxNodes, maxTextChars);
        this.walk = new TreeWalk(app, channel, tree, maxNodes);
        this.incremental = new IncrementalCheck(app, channel, tree, touch, walking, maxTextChars);
    }

    KnownApp app() {
        return app;
    }

    long deadlineNs() {
        return deadlineNs;
    }

    boolean isDone() {
        return stage == RefreshStage.DONE;
    }

    /** The application left the bus (its name has no owner): drop it. */
    boolean isGone() {
        return gone;
    }

    /** Sends the first stage. */
    void start() {
        if (touch != null && subtree) {
            sendSubtree();
        } else if (touch != null) {
            sendTouch();
        } else if (check && app.probed) {
            sendCheck();
        } else if (!app.probed) {
            sendProbe();
        } else {
            sendListing();
        }
    }

    /** A batch of ours completed: read it and send the next stage (or finish). */
    void onBatch(final CallBatch batch, final long nowNs) {
        if (batch != current || stage == RefreshStage.DONE) {
            return;  // a batch abandoned at an earlier deadline, answered late
        }
        try {
            switch (stage) {
                case CHECK -> readCheck(batch);
                case TOUCH -> readTouch(batch);
                case TOUCH_TEXT -> readText(batch);
                case SUBTREE -> readSubtree(batch);
                case PROBE -> readProbe(batch);
                case BULK -> readBulk(batch);
                case WALK -> readWalkLevel(batch);
                case DETAILS -> readDetails(batch);
                case TEXT -> readText(batch);
                default -> throw new IllegalStateException("stage " + stage);
            }
        } catch (final IllegalArgumentException | DBusWire.WireException e) {
            // A call we built could not be marshalled, or a reply not decoded: say so, keep the last nodes.
            fail("cannot build a call: " + e.getMessage());
        }
        if (stage == RefreshStage.DONE) {
            finish(nowNs);
        }
    }

    /** The deadline passed: build what arrived so far. */
    void expire(final long nowNs) {
        if (stage == RefreshStage.DONE) {
            return;
        }
        timedOut = true;
        error = "no answer within " + (deadlineNs - startNs) / 1_000_000 + " ms (" + stage.label + ")";
        // Use the replies that did arrive in the cut stage.
        try {
            if (current != null) {
                switch (stage) {
                    case BULK -> bulk.readArrived(current);
                    case WALK -> walk.readArrived(current);
                    case DETAILS -> readDetailsArrived(current);
                    case TEXT -> readTextArrived(current);
                    case TOUCH, TOUCH_TEXT, SUBTREE -> detailed = false; // half updated: the last view stands
                    default -> {
                    }
                }
            }
        } catch (final RuntimeException e) {
            error += "; " + e;
        }
        stage = RefreshStage.DONE;
        finish(nowNs);
    }

    // ---------------------------------------------------------------- check and touch

    private void sendCheck() {
        stage = RefreshStage.CHECK;
        final CallBatch batch = newBatch();
        incremental.askWindows(batch);
        if (batch.size() == 0) {
            sendListing(); // no window to check: read it
            return;
        }
        send(batch);
    }

    private void readCheck(final CallBatch batch) {
        if (!incremental.windowsUnmoved(batch)) {
            sendListing();
            return;
        }
        unchanged = true;
        stage = RefreshStage.DONE;
    }

    private void sendTouch() {
        stage = RefreshStage.TOUCH;
        final CallBatch batch = newBatch();
        if (!incremental.askTouched(batch)) {
            touchFails();
            return;
        }
        send(batch);
    }

    private void readTouch(final CallBatch batch) {
        if (!incremental.applyTouched(batch)) {
            touchFails(); // read the application whole
            return;
        }
        detailed = true;
        stage = RefreshStage.TOUCH_TEXT;
        final CallBatch text = newBatch();
        for (final int i : touch) {
            askText(text, i);
        }
        sendTextBatch(text);
    }

    private void sendSubtree() {
        stage = RefreshStage.SUBTREE;
        final CallBatch batch = newBatch();
        if (!incremental.askTouched(batch)) {
            touchFails();
            return;
        }
        bulk.askUnder(batch, touch);
        send(batch);
    }

    /** The subtrees' listings and their roots' facts: merged into a new tree, whose new objects DETAILS then asks. */
    private void readSubtree(final CallBatch batch) {
        final SubtreeMerge merge = SubtreeMerge.read(batch, bulk, incremental, tree, touch, app.rootPath, maxNodes);
        if (merge == null) {
            touchFails(); // read the application whole
            return;
        }
        tree = merge.merged;
        reread = merge.reread();
        sendDetails();
    }

    /** The incremental read cannot stand in for a whole one: end here, the application is read whole. */
    private void touchFails() {
        touchFailed = true;
        stage = RefreshStage.DONE;
    }

    // ---------------------------------------------------------------- probe

    private void sendProbe() {
        stage = RefreshStage.PROBE;
        final CallBatch batch = newBatch();
        try {
            AppProbe.ask(batch, bus, busChannel, app, peers);
        } catch (final DBusException | IllegalArgumentException e) {
            fail("cannot build a call: " + e.getMessage());
            return;
        }
        bus.send(batch);
    }

    private void readProbe(final CallBatch batch) {
        final Reply failed = AppProbe.read(batch, app);
        if (failed != null) {
            failOrGone(failed);
            return;
        }
        deadlineNs = app.guarded ? guardedDeadlineNs : deadlineNs;
        sendListing();
    }

    private void sendListing() {
        try {
            if (app.collection == KnownApp.COLLECTION_YES) {
                sendBulk();
            } else {
                sendWalkRoot();
            }
        } catch (final IllegalArgumentException e) {
            fail("cannot build a call: " + e.getMessage());
        }
    }

    // ---------------------------------------------------------------- bulk (Collection)

    private void sendBulk() {
        stage = RefreshStage.BULK;
        final CallBatch batch = newBatch();
        bulk.ask(batch);
        send(batch);
    }

    private void readBulk(final CallBatch batch) {
        final Reply all = batch.calls.get(0);
        if (all.failed()) {
            final String name = all.errorName();
            if (isUnsupported(name)) {
                // Says Collection but does not answer it: walk instead, from now on.
                app.collection = KnownApp.COLLECTION_NO;
                sendWalkRoot();
            } else {
                failOrGone(all);
            }
            return;
        }
        bulk.readArrived(batch);
        bulk.readEarlyDetails(batch);
        sendDetails();
    }

    // ---------------------------------------------------------------- walk (no Collection)

    private void sendWalkRoot() {
        stage = RefreshStage.WALK;
        walking = true;
        final CallBatch batch = newBatch();
        walk.askRoot(batch);
        send(batch);
    }

    private void readWalkLevel(final CallBatch batch) {
        final Reply first = batch.calls.get(0);
        if (TreeWalk.rootFailed(first)) {
            failOrGone(first);
            return;
        }
        final int levelStart = tree.size();
        walk.readArrived(batch);
        tree.listed = true;
        if (app.guarded && !childrenAsked && first.kind() != ReplyKind.K_CHILDREN) {
            // the level's facts are in: list the children of those that may be listed (D47)
            final CallBatch children = newBatch();
            walk.askChildren(children, factsFrom);
            if (children.size() == 0) {
                sendDetails();
                return;
            }
            childrenAsked = true;
            send(children);
            return;
        }
        childrenAsked = false;
        if (tree.size() == levelStart) {
            sendDetails();
            return;
        }
        final CallBatch next = newBatch();
        walk.askLevel(next, levelStart);
        factsFrom = levelStart;
        send(next);
    }

    // ---------------------------------------------------------------- details and text

    private void sendDetails() {
        stage = RefreshStage.DETAILS;
        final CallBatch batch = newBatch();
        final boolean[] insideHidden = tree.knownInsideHidden();
        for (int i = 0, n = tree.size(); i < n; i++) {
            final DraftTree.Draft d = tree.get(i);
            if (d.dropped) {
                continue;
            }
            if (!tree.needsDetails(i)) {
                continue; // not shown: left out with all in it, its facts unread (DraftTree.needsDetails)
            }
            if (d.rare && !bulk.hasState(i)) {
                channel.call(batch, d.path, AtspiBus.ACCESSIBLE, "GetState", null, K_STATE, i); // BulkListing's rare states
            }
            if (!walking && !bulk.hasProperties(i)) {
                // Name and parent in one call. Only at-spi2-atk gets GetAll: Qt 5.15 crashes on it.
                channel.call(batch, d.path, AtspiBus.PROPERTIES, "GetAll", "s", K_PROPERTIES, i, AtspiBus.ACCESSIBLE);
            }
            if ((d.states & S_SHOWN) != 0 && (!walking || (d.interfaces & I_COMPONENT) != 0) && !bulk.hasExtents(i)
                && !insideHidden[i]) { // left out with the object off screen around it: where it lies does not matter
                channel.call(batch, d.path, AtspiBus.COMPONENT, "GetExtents", "u", K_EXTENTS, i, new UInt32(0));
            }
            if (walking && (d.interfaces & I_ACTION) != 0) {
                channel.call(batch, d.path, AtspiBus.PROPERTIES, "Get", "ss", K_ACTION_COUNT, i, AtspiBus.ACTION, "NActions");
            }
            if (wantsContent(d) && maxTextChars > 0 && !bulk.hasCharCount(i)) {
                channel.call(batch, d.path, AtspiBus.PROPERTIES, "Get", "ss", K_CHAR_COUNT, i, AtspiBus.TEXT,
                    "CharacterCount");
            }
        }
        if (batch.size() == 0) {
            sendText();  // everything came with the listing
            return;
        }
        send(batch);
    }

    /** A text role with the Text interface; never a password field, whose content must not leave it. */
    static boolean wantsContent(final DraftTree.Draft d) {
        return AtspiMapping.readsContent(d.roleClass) && d.roleClass != CLASS_PASSWORD && (d.interfaces & I_TEXT) != 0;
    }

    private void readDetails(final CallBatch batch) {
        readDetailsArrived(batch);
        sendText();
    }

    private void sendText() {
        detailed = true; // the details are in (or none were needed)
        stage = RefreshStage.TEXT;
        final CallBatch text = newBatch();
        for (int i = 0, n = tree.size(); i < n; i++) {
            if (reread == null || reread[i]) {
                askText(text, i);
            }
        }
        sendTextBatch(text);
    }

    /** Asks object {@code i} for its content where it has one to read. */
    private void askText(final CallBatch text, final int i) {
        final DraftTree.Draft d = tree.get(i);
        // Labels are named by their text; read the content only where the name is empty.
        if (!d.dropped && wantsContent(d) && d.charCount > 0 && (d.roleClass != CLASS_LABEL || d.name.isEmpty())
            && tree.needsDetails(i)) {
            channel.call(text, d.path, AtspiBus.TEXT, "GetText", "ii", K_TEXT, i, 0, Math.min(d.charCount, maxTextChars));
        }
    }

    private void sendTextBatch(final CallBatch text) {
        if (text.size() == 0) {
            stage = RefreshStage.DONE;
            return;
        }
        send(text);
    }

    private void readDetailsArrived(final CallBatch batch) {
        for (final Reply call : batch.calls) {
            if (!call.answered()) {
                continue;
            }
            if (call.failed()) {
                if (call.kind() == K_PROPERTIES && isVanished(call.errorName())) {
                    tree.get(call.index()).dropped = true;
                }
                continue;
            }
            tree.applyDetail(call.kind(), call.index(), call);
        }
    }

    private void readText(final CallBatch batch) {
        readTextArrived(batch);
        stage = RefreshStage.DONE;
    }

    private void readTextArrived(final CallBatch batch) {
        for (final Reply call : batch.calls) {
            if (call.answered() && call.value() instanceof String s) {
                tree.get(call.index()).content = s;
            }
        }
    }

    // ---------------------------------------------------------------- result

    private void finish(final long nowNs) {
        finishedNs = nowNs;
        // failed TOUCH or SUBTREE, or no listing: nothing new, the application keeps its last nodes
        nodes = touchFailed || !tree.listed ? null : tree.buildNodes(walking);
    }

    /** The new nodes, or null if the listing never arrived (keep the last ones). */
    List<AccessibilityNode> nodes() {
        return nodes;
    }

    /** What the scene shows of {@link #nodes()} (see {@link DraftTree}); null with it. */
    List<AccessibilityNode> shownNodes() {
        return nodes == null ? null : tree.shownNodes();
    }

    /** A TOUCH refresh could not update its objects in place: read the application whole. */
    boolean touchFailed() {
        return touchFailed;
    }

    /** This was a TOUCH refresh (the nodes come from the last tree, updated in place). */
    boolean touched() {
        return touch != null;
    }

    /** This was a SUBTREE refresh: the nodes come from the last tree with the re-read subtrees merged in (D61). */
    boolean subtree() {
        return subtree && touch != null;
    }

    /** The tree the nodes were built from: kept by the application for TOUCH and SUBTREE refreshes. */
    DraftTree tree() {
        return tree;
    }

    /** CHECK found every window where it was: the application keeps its nodes, nothing to apply. */
    boolean unchanged() {
        return unchanged;
    }

    /**
     * The details stage ended, so {@link #shownNodes()} is the scene's filtered view; false when
     * the deadline cut the listing or the details (then only the object list is new).
     */
    boolean detailed() {
        return detailed;
    }

    /** The whole tree was read in time. */
    boolean complete() {
        return nodes != null && !tree.truncated && !timedOut && error == null;
    }

    /** Read in time, whole but for what a guarded walk leaves out by design (D47): a retry finds no more. */
    boolean completeAsDesigned() {
        return nodes != null && !tree.budgetReached && !timedOut && error == null;
    }

    String error() {
        if (error == null && tree.truncated) {
            return "node budget of " + maxNodes + " reached";
        }
        return error;
    }

    long durationNs() {
        return finishedNs - startNs;
    }

    /** The listing went over the application's peer-to-peer connection. */
    boolean usedPeer() {
        return channel != busChannel;
    }

    boolean timedOut() {
        return timedOut;
    }

    // ---------------------------------------------------------------- helpers

    private CallBatch newBatch() {
        current = new CallBatch(this, completion);
        return current;
    }

    private void send(final CallBatch batch) {
        channel.send(batch);
    }

    private void fail(final String why) {
        error = why;
        stage = RefreshStage.DONE;
    }

    private void failOrGone(final Reply call) {
        final String name = call.errorName();
        if ("org.freedesktop.DBus.Error.ServiceUnknown".equals(name)
            || "org.freedesktop.DBus.Error.NameHasNoOwner".equals(name)) {
            gone = true;
        }
        fail(call.errorText());
    }

    /** The application does not implement what was asked. */
    static boolean isUnsupported(final String errorName) {
        return "org.freedesktop.DBus.Error.UnknownMethod".equals(errorName)
            || "org.freedesktop.DBus.Error.UnknownInterface".equals(errorName)
            || "org.freedesktop.DBus.Error.NotSupported".equals(errorName);
    }

    /** The object (or its application) no longer exists. */
    static boolean isVanished(final String errorName) {
        return "org.freedesktop.DBus.Error.UnknownObject".equals(errorName)
            || "org.freedesktop.DBus.Error.ServiceUnknown".equals(errorName)
            || "org.freedesktop.DBus.Error.NameHasNoOwner".equals(errorName);
    }
}
