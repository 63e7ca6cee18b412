package dev.saccade.owner.atspi;

import static dev.saccade.owner.atspi.AtspiMapping.CLASS_OTHER;
import static dev.saccade.owner.atspi.AtspiMapping.CLASS_PASSWORD;
import static dev.saccade.owner.atspi.AtspiMapping.CLASS_TEXT_INPUT;
import static dev.saccade.owner.atspi.AtspiMapping.I_ACTION;
import static dev.saccade.owner.atspi.AtspiMapping.I_COMPONENT;
import static dev.saccade.owner.atspi.AtspiMapping.I_TEXT;
import static dev.saccade.owner.atspi.AtspiMapping.OFF_SCREEN;
import static dev.saccade.owner.atspi.AtspiMapping.S_SHOWN;

import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlag;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.types.UInt32;

/**
 * One refresh of one application's tree: a small state machine the source thread drives, one
 * batch of pipelined calls per stage, so no thread ever waits on this application alone and a
 * hung application costs nothing but its own deadline.
 *
 * <p>Stages:
 * <ol>
 * <li>PROBE (first refresh only): pid, name, interfaces of the application object, and the
 *     address of its own D-Bus server (see {@link PeerLink}).</li>
 * <li>BULK (applications with {@code Collection}, i.e. at-spi2-atk): one {@code GetMatches} for
 *     every object in canonical order, four that tell the role classes apart (binary-coded), four
 *     for states and four for interfaces. Each answers one question for all objects at once: 13
 *     calls instead of three per object. Each asks for at most budget+1 objects: the matches
 *     inside the first budget objects of canonical order are always among the first budget+1
 *     matches.</li>
 * <li>WALK (the others, e.g. Qt): breadth-first, one batch per tree level with
 *     {@code GetChildren}, role, state, interfaces and name of every object of that level; stops
 *     adding objects at the budget.</li>
 * <li>DETAILS: per object what has no bulk form: name and parent ({@code GetAll} on
 *     at-spi2-atk), extents of showing objects, action counts (walk), text lengths of text roles.
 *     A bulk refresh asks the last refresh's objects for these together with the listing, so
 *     usually only new objects are left for this stage (often none: the stage is skipped).</li>
 * <li>TEXT: the content of text roles, at most the text limit.</li>
 * </ol>
 * Where a stage is cut by the deadline, the nodes are built from what arrived and the
 * application is marked incomplete; if not even its object list arrived, it keeps its last nodes.
 *
 * <p>Budget: {@code maxNodes} objects per application per refresh. Beyond it the rest of the tree
 * (in canonical order for BULK, breadth-first for WALK) is left out and the application is
 * marked incomplete.
 *
 * <p>Calls go through the bus, or once the application's peer-to-peer connection is ready, over
 * that (same calls, same answers, about half the cost).
 *
 * <p>Used by the source thread only; the batches complete on dbus-java's reader thread or the
 * peer link's I/O thread and are routed back through the source's queue.
 */
final class AppRefresh {
    private static final int STAGE_PROBE = 0;
    private static final int STAGE_BULK = 1;
    private static final int STAGE_WALK = 2;
    private static final int STAGE_DETAILS = 3;
    private static final int STAGE_TEXT = 4;
    private static final int STAGE_DONE = 5;

    private static final int K_PID = 1;
    private static final int K_ROOT_INTERFACES = 2;
    private static final int K_ROOT_NAME = 3;
    private static final int K_MATCH_ALL = 4;
    private static final int K_MATCH_ROLE = 5;
    private static final int K_MATCH_STATE = 6;
    private static final int K_MATCH_INTERFACE = 7;
    private static final int K_CHILDREN = 8;
    private static final int K_ROLE = 9;
    private static final int K_STATE = 10;
    private static final int K_INTERFACES = 11;
    private static final int K_NAME = 12;
    private static final int K_PROPERTIES = 13;
    private static final int K_EXTENTS = 14;
    private static final int K_ACTION_COUNT = 15;
    private static final int K_CHAR_COUNT = 16;
    private static final int K_TEXT = 17;
    private static final int K_PEER_ADDRESS = 18;
    /** Details asked together with the bulk listing, for the objects of the last refresh (index: position there). */
    private static final int K_EARLY_PROPERTIES = 19;
    private static final int K_EARLY_EXTENTS = 20;
    private static final int K_EARLY_CHAR_COUNT = 21;

    /** A walk deeper than this is a cycle or a pathological tree. */
    static final int MAX_WALK_DEPTH = 64;
    private static final int ROOT = -1;
    private static final Object[] EMPTY_RULE = matchRule(new int[0], new int[0], new String[0]);
    private static final Object[][] ROLE_RULES = new Object[AtspiMapping.ROLE_CLASS_BITS][];
    private static final Object[][] STATE_RULES = new Object[AtspiMapping.STATE_SETS.length][];
    private static final Object[][] INTERFACE_RULES = new Object[AtspiMapping.INTERFACE_RULE_NAMES.length][];

    static {
        for (int b = 0; b < ROLE_RULES.length; b++) {
            ROLE_RULES[b] = matchRule(new int[0], AtspiMapping.roleCodeBits(b), new String[0]);
        }
        for (int s = 0; s < STATE_RULES.length; s++) {
            STATE_RULES[s] = matchRule(AtspiMapping.stateBits(AtspiMapping.STATE_SETS[s]), new int[0], new String[0]);
        }
        for (int i = 0; i < INTERFACE_RULES.length; i++) {
            INTERFACE_RULES[i] = matchRule(new int[0], new int[0], new String[] {AtspiMapping.INTERFACE_RULE_NAMES[i]});
        }
    }

    /** One object while its facts come in. */
    private static final class Draft {
        final String path;
        final int parent;
        final int depth;
        int roleClass = CLASS_OTHER;
        /** Bulk only: the sum of the role rules matched, see {@link AtspiMapping#ROLE_CLASS_BITS}. */
        int roleCode;
        int states;
        int interfaces;
        String name = "";
        boolean hasExtents;
        int x;
        int y;
        int width;
        int height;
        int actionCount = -1;
        int charCount = -1;
        String content;
        /** Vanished between calls (UnknownObject): left out with its descendants. */
        boolean dropped;
        /** Walk only: children in order, as indexes. */
        int[] children;
        int childCount;

        Draft(final String path, final int parent, final int depth) {
            this.path = path;
            this.parent = parent;
            this.depth = depth;
        }

        void addChild(final int index) {
            if (children == null) {
                children = new int[4];
            } else if (childCount == children.length) {
                children = java.util.Arrays.copyOf(children, childCount * 2);
            }
            children[childCount++] = index;
        }
    }

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
    private final long deadlineNs;

    private final List<Draft> drafts = new ArrayList<>();
    private final Map<String, Integer> indexByPath = new HashMap<>();
    /** Walk only: the application object's children, as indexes. */
    private final List<Integer> rootChildren = new ArrayList<>();
    /** Bulk only: each object's parent index, from GetAll (GetMatches lists carry no parents). */
    private int[] bulkParents;
    /** Bulk only: the last refresh's nodes the early details were asked for, by position. */
    private List<AccessibilityNode> earlyFrom = List.of();
    /** Bulk only: which drafts got which detail early (null: none asked). */
    private boolean[] haveProperties;
    private boolean[] haveExtents;
    private boolean[] haveCharCount;
    private int stage;
    private CallBatch current;
    private boolean walking;
    private boolean listed;
    private boolean truncated;
    private boolean timedOut;
    private boolean gone;
    private String error;
    private List<AccessibilityNode> nodes;
    private long finishedNs;

    AppRefresh(
        final KnownApp app, final AtspiBus bus, final PeerLink peers, final Consumer<CallBatch> completion,
        final int maxNodes, final int maxTextChars, final long startNs, final long deadlineNs) {
        this.app = app;
        this.bus = bus;
        this.busChannel = bus.channel(app.busName);
        this.peers = peers;
        this.channel = app.peer != null && app.peer.isReady() ? app.peer : busChannel;
        this.completion = completion;
        this.maxNodes = maxNodes;
        this.maxTextChars = maxTextChars;
        this.startNs = startNs;
        this.deadlineNs = deadlineNs;
    }

    KnownApp app() {
        return app;
    }

    long deadlineNs() {
        return deadlineNs;
    }

    boolean isDone() {
        return stage == STAGE_DONE;
    }

    /** The application left the bus (its name has no owner): drop it. */
    boolean isGone() {
        return gone;
    }

    /** Sends the first stage. */
    void start() {
        if (!app.probed) {
            sendProbe();
        } else {
            sendListing();
        }
    }

    /** A batch of ours completed: read it and send the next stage (or finish). */
    void onBatch(final CallBatch batch, final long nowNs) {
        if (batch != current || stage == STAGE_DONE) {
            return;  // a batch abandoned at an earlier deadline, answered late
        }
        try {
            switch (stage) {
                case STAGE_PROBE -> readProbe(batch);
                case STAGE_BULK -> readBulk(batch);
                case STAGE_WALK -> readWalkLevel(batch);
                case STAGE_DETAILS -> readDetails(batch);
                case STAGE_TEXT -> readText(batch);
                default -> throw new IllegalStateException("stage " + stage);
            }
        } catch (final IllegalArgumentException | DBusWire.WireException e) {
            // A call we built could not be marshalled, or a reply not decoded: say so, keep the last nodes.
            fail("cannot build a call: " + e.getMessage());
        }
        if (stage == STAGE_DONE) {
            finish(nowNs);
        }
    }

    /** The deadline passed: build what arrived so far. */
    void expire(final long nowNs) {
        if (stage == STAGE_DONE) {
            return;
        }
        timedOut = true;
        error = "no answer within " + (deadlineNs - startNs) / 1_000_000 + " ms (" + stageName() + ")";
        // Use the replies that did arrive in the cut stage.
        try {
            if (current != null) {
                switch (stage) {
                    case STAGE_BULK -> readBulkArrived(current);
                    case STAGE_WALK -> readWalkArrived(current);
                    case STAGE_DETAILS -> readDetailsArrived(current);
                    case STAGE_TEXT -> readTextArrived(current);
                    default -> {
                    }
                }
            }
        } catch (final RuntimeException e) {
            error += "; " + e;
        }
        stage = STAGE_DONE;
        finish(nowNs);
    }

    // ---------------------------------------------------------------- probe

    private void sendProbe() {
        stage = STAGE_PROBE;
        final CallBatch batch = newBatch();
        try {
            batch.add(bus.call(AtspiBus.DBUS, AtspiBus.DBUS_PATH, AtspiBus.DBUS, "GetConnectionUnixProcessID", "s",
                batch, K_PID, ROOT, app.busName));
            busChannel.call(batch, app.rootPath, AtspiBus.ACCESSIBLE, "GetInterfaces", null, K_ROOT_INTERFACES, ROOT);
            busChannel.call(batch, app.rootPath, AtspiBus.PROPERTIES, "Get", "ss", K_ROOT_NAME, ROOT,
                AtspiBus.ACCESSIBLE, "Name");
            if (peers != null) {
                busChannel.call(batch, app.rootPath, AtspiBus.APPLICATION, "GetApplicationBusAddress", null,
                    K_PEER_ADDRESS, ROOT);
            }
        } catch (final DBusException | IllegalArgumentException e) {
            fail("cannot build a call: " + e.getMessage());
            return;
        }
        bus.send(batch);
    }

    private void readProbe(final CallBatch batch) {
        boolean sawCollection = false;
        for (final Reply call : batch.calls) {
            switch (call.kind()) {
                case K_PID -> app.pid = AtspiCall.asLong(call.value(), 0);
                case K_ROOT_NAME -> {
                    if (call.value() instanceof String s) {
                        app.name = s;
                    }
                }
                case K_PEER_ADDRESS -> {
                    if (call.value() instanceof String address) {
                        app.peerAddress = PeerLink.socketPath(address);
                    }
                }
                case K_ROOT_INTERFACES -> {
                    if (call.failed()) {
                        failOrGone(call);
                        return;
                    }
                    final Object list = call.value();
                    for (int i = 0, n = AtspiCall.length(list); i < n; i++) {
                        if (AtspiBus.COLLECTION.equals(AtspiCall.item(list, i))) {
                            sawCollection = true;
                        }
                    }
                }
                default -> {
                }
            }
        }
        app.probed = true;
        app.idSeed = AtspiTargetIds.appSeed(app.busName, app.pid);
        app.collection = sawCollection ? KnownApp.COLLECTION_YES : KnownApp.COLLECTION_NO;
        if (!sawCollection) {
            app.peerAddress = null;  // only at-spi2-atk gets the peer path (see KnownApp)
        }
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
        stage = STAGE_BULK;
        final CallBatch batch = newBatch();
        final int count = maxNodes + 1;
        matches(batch, K_MATCH_ALL, 0, EMPTY_RULE, count);
        for (int c = 0; c < ROLE_RULES.length; c++) {
            matches(batch, K_MATCH_ROLE, c, ROLE_RULES[c], count);
        }
        for (int s = 0; s < STATE_RULES.length; s++) {
            matches(batch, K_MATCH_STATE, s, STATE_RULES[s], count);
        }
        for (int i = 0; i < INTERFACE_RULES.length; i++) {
            matches(batch, K_MATCH_INTERFACE, i, INTERFACE_RULES[i], count);
        }
        // Trees rarely change between refreshes: ask the last refresh's objects for their details
        // now, in the same batch, instead of one round trip later. Objects gone since answer
        // UnknownObject and are ignored; new ones are asked after the listing.
        final List<AccessibilityNode> last = app.nodes;
        for (int j = 0, n = Math.min(last.size(), maxNodes); j < n; j++) {
            final AccessibilityNode node = last.get(j);
            channel.call(batch, node.objectPath(), AtspiBus.PROPERTIES, "GetAll", "s", K_EARLY_PROPERTIES, j,
                AtspiBus.ACCESSIBLE);
            if (!node.hasFlag(TargetFlag.OCCLUDED)) {
                channel.call(batch, node.objectPath(), AtspiBus.COMPONENT, "GetExtents", "u", K_EARLY_EXTENTS, j,
                    new UInt32(0));
            }
            if ((node.role() == Role.TEXT || node.role() == Role.TEXT_FIELD) && !node.hasFlag(TargetFlag.SECURE)
                && maxTextChars > 0) {
                channel.call(batch, node.objectPath(), AtspiBus.PROPERTIES, "Get", "ss", K_EARLY_CHAR_COUNT, j,
                    AtspiBus.TEXT, "CharacterCount");
            }
        }
        earlyFrom = last;
        send(batch);
    }

    private Reply matches(final CallBatch batch, final int kind, final int index, final Object[] rule, final int count) {
        return channel.call(batch, app.rootPath, AtspiBus.COLLECTION, "GetMatches", AtspiBus.GET_MATCHES_SIGNATURE,
            kind, index, rule, new UInt32(AtspiMapping.SORT_CANONICAL), count, Boolean.TRUE);
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
        readBulkArrived(batch);
        readEarlyDetails(batch);
        sendDetails();
    }

    /** Applies the details asked with the listing to the objects still listed. */
    private void readEarlyDetails(final CallBatch batch) {
        final int n = drafts.size();
        haveProperties = new boolean[n];
        haveExtents = new boolean[n];
        haveCharCount = new boolean[n];
        for (final Reply call : batch.calls) {
            final int kind = call.kind();
            if (kind < K_EARLY_PROPERTIES || !call.answered() || call.failed()) {
                continue;
            }
            final Integer i = indexByPath.get(earlyFrom.get(call.index()).objectPath());
            if (i == null) {
                continue;  // gone since, or beyond the budget now
            }
            switch (kind) {
                case K_EARLY_PROPERTIES -> haveProperties[i] = applyDetail(K_PROPERTIES, i, call);
                case K_EARLY_EXTENTS -> {
                    // Only where it still shows: a hidden object publishes no bounds.
                    if ((drafts.get(i).states & S_SHOWN) != 0) {
                        haveExtents[i] = applyDetail(K_EXTENTS, i, call);
                    }
                }
                default -> haveCharCount[i] = applyDetail(K_CHAR_COUNT, i, call);
            }
        }
    }

    /** Reads whichever bulk replies are in (all of them after a normal completion). */
    private void readBulkArrived(final CallBatch batch) {
        final Reply all = batch.calls.get(0);
        final Object[] allReply = all.parameters();
        if (allReply == null || allReply.length == 0) {
            return;  // without the object list, nothing else can be placed
        }
        final Object list = allReply[0];
        final int total = AtspiCall.length(list);
        final int n = Math.min(total, maxNodes);
        truncated = total > maxNodes;
        for (int i = 0; i < n; i++) {
            final String path = AtspiCall.referencePath(AtspiCall.item(list, i));
            if (path != null && !indexByPath.containsKey(path)) {
                indexByPath.put(path, drafts.size());
                drafts.add(new Draft(path, ROOT, 0));
            }
        }
        listed = true;
        for (int c = 1, calls = batch.calls.size(); c < calls; c++) {
            final Reply call = batch.calls.get(c);
            final Object[] reply = call.parameters();
            if (reply == null || reply.length == 0) {
                continue;
            }
            final Object matches = reply[0];
            for (int i = 0, m = AtspiCall.length(matches); i < m; i++) {
                final Integer index = indexByPath.get(AtspiCall.referencePath(AtspiCall.item(matches, i)));
                if (index == null) {
                    continue;  // beyond the budget window, or created after the listing
                }
                final Draft d = drafts.get(index);
                switch (call.kind()) {
                    case K_MATCH_ROLE -> d.roleCode |= 1 << call.index();
                    case K_MATCH_STATE -> d.states |= 1 << call.index();
                    case K_MATCH_INTERFACE -> d.interfaces |= 1 << call.index();
                    default -> {
                    }
                }
            }
        }
        for (final Draft d : drafts) {
            d.roleClass = AtspiMapping.roleClassOfCode(d.roleCode);
        }
    }

    // ---------------------------------------------------------------- walk (no Collection)

    private void sendWalkRoot() {
        stage = STAGE_WALK;
        walking = true;
        final CallBatch batch = newBatch();
        channel.call(batch, app.rootPath, AtspiBus.ACCESSIBLE, "GetChildren", null, K_CHILDREN, ROOT);
        send(batch);
    }

    private void readWalkLevel(final CallBatch batch) {
        final Reply first = batch.calls.get(0);
        if (first.kind() == K_CHILDREN && first.index() == ROOT && first.failed()) {
            failOrGone(first);
            return;
        }
        final int levelStart = drafts.size();
        readWalkArrived(batch);
        listed = true;
        if (drafts.size() == levelStart) {
            sendDetails();
            return;
        }
        // The new level: role, state, interfaces, name and children of each object, all at once.
        final CallBatch next = newBatch();
        for (int i = levelStart; i < drafts.size(); i++) {
            final Draft d = drafts.get(i);
            channel.call(next, d.path, AtspiBus.ACCESSIBLE, "GetRole", null, K_ROLE, i);
            channel.call(next, d.path, AtspiBus.ACCESSIBLE, "GetState", null, K_STATE, i);
            channel.call(next, d.path, AtspiBus.ACCESSIBLE, "GetInterfaces", null, K_INTERFACES, i);
            channel.call(next, d.path, AtspiBus.PROPERTIES, "Get", "ss", K_NAME, i, AtspiBus.ACCESSIBLE, "Name");
            if (d.depth < MAX_WALK_DEPTH) {
                channel.call(next, d.path, AtspiBus.ACCESSIBLE, "GetChildren", null, K_CHILDREN, i);
            }
        }
        send(next);
    }

    /** Reads a walk level's replies that are in: facts of the level, children for the next. */
    private void readWalkArrived(final CallBatch batch) {
        for (final Reply call : batch.calls) {
            if (!call.answered()) {
                continue;
            }
            if (call.kind() == K_CHILDREN) {
                final Object[] reply = call.parameters();
                if (reply == null || reply.length == 0) {
                    continue;
                }
                final Object children = reply[0];
                for (int i = 0, n = AtspiCall.length(children); i < n; i++) {
                    final String path = AtspiCall.referencePath(AtspiCall.item(children, i));
                    if (path == null || indexByPath.containsKey(path) || path.equals(app.rootPath)) {
                        continue;  // a cycle, or an object listed twice
                    }
                    if (drafts.size() >= maxNodes) {
                        truncated = true;
                        break;
                    }
                    final int index = drafts.size();
                    final int depth = call.index() == ROOT ? 0 : drafts.get(call.index()).depth + 1;
                    indexByPath.put(path, index);
                    drafts.add(new Draft(path, call.index(), depth));
                    if (call.index() == ROOT) {
                        rootChildren.add(index);
                    } else {
                        drafts.get(call.index()).addChild(index);
                    }
                }
                continue;
            }
            final Draft d = drafts.get(call.index());
            if (call.failed()) {
                if (call.kind() == K_ROLE) {
                    d.dropped = true;
                }
                continue;
            }
            switch (call.kind()) {
                case K_ROLE -> d.roleClass = AtspiMapping.roleClass((int) AtspiCall.asLong(call.value(), -1));
                case K_STATE -> {
                    final Object words = call.value();
                    d.states = AtspiMapping.states(AtspiCall.element(words, 0, 0), AtspiCall.element(words, 1, 0));
                }
                case K_INTERFACES -> {
                    final Object names = call.value();
                    for (int i = 0, n = AtspiCall.length(names); i < n; i++) {
                        d.interfaces |= AtspiMapping.interfaceBit(String.valueOf(AtspiCall.item(names, i)));
                    }
                }
                case K_NAME -> {
                    if (call.value() instanceof String s) {
                        d.name = s;
                    }
                }
                default -> {
                }
            }
        }
    }

    // ---------------------------------------------------------------- details and text

    private void sendDetails() {
        stage = STAGE_DETAILS;
        final CallBatch batch = newBatch();
        for (int i = 0, n = drafts.size(); i < n; i++) {
            final Draft d = drafts.get(i);
            if (d.dropped) {
                continue;
            }
            if (!walking && !already(haveProperties, i)) {
                // Name and parent in one call. Only at-spi2-atk gets GetAll: Qt 5.15 crashes on it.
                channel.call(batch, d.path, AtspiBus.PROPERTIES, "GetAll", "s", K_PROPERTIES, i, AtspiBus.ACCESSIBLE);
            }
            if ((d.states & S_SHOWN) != 0 && (!walking || (d.interfaces & I_COMPONENT) != 0) && !already(haveExtents, i)) {
                channel.call(batch, d.path, AtspiBus.COMPONENT, "GetExtents", "u", K_EXTENTS, i, new UInt32(0));
            }
            if (walking && (d.interfaces & I_ACTION) != 0) {
                channel.call(batch, d.path, AtspiBus.PROPERTIES, "Get", "ss", K_ACTION_COUNT, i, AtspiBus.ACTION, "NActions");
            }
            if (wantsContent(d) && maxTextChars > 0 && !already(haveCharCount, i)) {
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

    private static boolean already(final boolean[] have, final int i) {
        return have != null && have[i];
    }

    /** A text role with the Text interface; never a password field, whose content must not leave it. */
    private static boolean wantsContent(final Draft d) {
        return AtspiMapping.readsContent(d.roleClass) && d.roleClass != CLASS_PASSWORD && (d.interfaces & I_TEXT) != 0;
    }

    private void readDetails(final CallBatch batch) {
        readDetailsArrived(batch);
        sendText();
    }

    private void sendText() {
        stage = STAGE_TEXT;
        final CallBatch text = newBatch();
        for (int i = 0, n = drafts.size(); i < n; i++) {
            final Draft d = drafts.get(i);
            // Labels are named by their text; read the content only where the name is empty.
            if (!d.dropped && wantsContent(d) && d.charCount > 0 && (d.roleClass == CLASS_TEXT_INPUT || d.name.isEmpty())) {
                channel.call(text, d.path, AtspiBus.TEXT, "GetText", "ii", K_TEXT, i, 0, Math.min(d.charCount, maxTextChars));
            }
        }
        if (text.size() == 0) {
            stage = STAGE_DONE;
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
                    drafts.get(call.index()).dropped = true;
                }
                continue;
            }
            applyDetail(call.kind(), call.index(), call);
        }
    }

    /** Puts one detail reply into draft {@code i}; false if the reply was not usable. */
    private boolean applyDetail(final int kind, final int i, final Reply call) {
        final Draft d = drafts.get(i);
        switch (kind) {
            case K_PROPERTIES -> {
                final Object props = call.value();
                if (AtspiCall.property(props, "Name") instanceof String s) {
                    d.name = s;
                }
                final String parent = AtspiCall.referencePath(AtspiCall.property(props, "Parent"));
                if (parent != null) {
                    final Integer p = indexByPath.get(parent);
                    parentByIndex(i, p == null ? ROOT : p);
                }
                return props != null;
            }
            case K_EXTENTS -> {
                final Object box = call.value();
                d.x = (int) AtspiCall.element(box, 0, 0);
                d.y = (int) AtspiCall.element(box, 1, 0);
                d.width = (int) AtspiCall.element(box, 2, 0);
                d.height = (int) AtspiCall.element(box, 3, 0);
                d.hasExtents = AtspiCall.length(box) == 4;
                return d.hasExtents;
            }
            case K_ACTION_COUNT -> {
                d.actionCount = (int) AtspiCall.asLong(call.value(), -1);
                return true;
            }
            case K_CHAR_COUNT -> {
                d.charCount = (int) AtspiCall.asLong(call.value(), -1);
                return d.charCount >= 0;
            }
            default -> {
                return false;
            }
        }
    }

    private void parentByIndex(final int index, final int parent) {
        if (bulkParents == null) {
            bulkParents = new int[drafts.size()];
            java.util.Arrays.fill(bulkParents, ROOT);
        }
        bulkParents[index] = parent;
    }

    private void readText(final CallBatch batch) {
        readTextArrived(batch);
        stage = STAGE_DONE;
    }

    private void readTextArrived(final CallBatch batch) {
        for (final Reply call : batch.calls) {
            if (call.answered() && call.value() instanceof String s) {
                drafts.get(call.index()).content = s;
            }
        }
    }

    // ---------------------------------------------------------------- result

    private void finish(final long nowNs) {
        finishedNs = nowNs;
        if (!listed) {
            nodes = null;  // nothing new: the application keeps its last nodes
            return;
        }
        nodes = buildNodes();
    }

    private List<AccessibilityNode> buildNodes() {
        final int n = drafts.size();
        final long[] ids = new long[n];
        final boolean[] skip = new boolean[n];
        final List<AccessibilityNode> built = new ArrayList<>(n);
        if (walking) {
            // Depth-first from the application object: canonical order, like GetMatches gives.
            final int[] stack = new int[n + 1];
            final List<Integer> order = new ArrayList<>(n);
            for (final int r : rootChildren) {
                int top = 0;
                stack[top++] = r;
                while (top > 0) {
                    final int i = stack[--top];
                    order.add(i);
                    final Draft d = drafts.get(i);
                    for (int c = d.childCount - 1; c >= 0; c--) {
                        stack[top++] = d.children[c];
                    }
                }
            }
            for (final int i : order) {
                add(built, i, drafts.get(i).parent, ids, skip);
            }
        } else {
            for (int i = 0; i < n; i++) {
                add(built, i, bulkParents == null ? ROOT : bulkParents[i], ids, skip);
            }
        }
        return Collections.unmodifiableList(built);
    }

    private void add(final List<AccessibilityNode> built, final int i, final int parent, final long[] ids, final boolean[] skip) {
        final Draft d = drafts.get(i);
        if (d.dropped || (parent != ROOT && skip[parent])) {
            skip[i] = true;
            return;
        }
        final boolean offScreenSentinel = d.x == OFF_SCREEN || d.y == OFF_SCREEN;
        final boolean onScreen = d.hasExtents && !offScreenSentinel && d.width > 0 && d.height > 0;
        final int x = offScreenSentinel ? 0 : d.x;
        final int y = offScreenSentinel ? 0 : d.y;
        final int width = offScreenSentinel ? 0 : d.width;
        final int height = offScreenSentinel ? 0 : d.height;
        final String text;
        boolean truncatedText = false;
        if (d.roleClass == CLASS_PASSWORD) {
            text = "";
        } else if (d.content != null && !d.content.isEmpty()) {
            text = d.content;
            truncatedText = d.charCount > maxTextChars;
        } else {
            text = d.name;
        }
        final int role = AtspiMapping.targetRole(d.roleClass, d.states);
        final int caps = AtspiMapping.capabilities(d.roleClass, d.states, d.interfaces, d.actionCount);
        final int flags = AtspiMapping.flags(d.roleClass, d.states, caps, onScreen, truncatedText);
        final long id = AtspiTargetIds.of(app.idSeed, d.path, d.roleClass);
        ids[i] = id;
        final long parentId = parent == ROOT ? 0 : ids[parent];
        built.add(new AccessibilityNode(id, parentId, role, caps, flags, x, y, width, height, text, d.name, app.pid,
            app.busName, d.path));
    }

    /** The new nodes, or null if the listing never arrived (keep the last ones). */
    List<AccessibilityNode> nodes() {
        return nodes;
    }

    /** The whole tree was read in time. */
    boolean complete() {
        return nodes != null && !truncated && !timedOut && error == null;
    }

    String error() {
        if (error == null && truncated) {
            return "node budget of " + maxNodes + " reached";
        }
        return error;
    }

    long durationNs() {
        return finishedNs - startNs;
    }

    boolean usedCollection() {
        return !walking;
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
        stage = STAGE_DONE;
    }

    private void failOrGone(final Reply call) {
        final String name = call.errorName();
        if ("org.freedesktop.DBus.Error.ServiceUnknown".equals(name)
            || "org.freedesktop.DBus.Error.NameHasNoOwner".equals(name)) {
            gone = true;
        }
        fail(call.errorText());
    }

    private String stageName() {
        switch (stage) {
            case STAGE_PROBE: return "probe";
            case STAGE_BULK: return "bulk";
            case STAGE_WALK: return "walk";
            case STAGE_DETAILS: return "details";
            case STAGE_TEXT: return "text";
            default: return "done";
        }
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

    /** A match rule: states (ALL), no attributes, roles (ANY), interfaces (ALL), not inverted. */
    static Object[] matchRule(final int[] states, final int[] roles, final String[] interfaces) {
        return new Object[] {
            states, AtspiMapping.MATCH_ALL, Map.of(), AtspiMapping.MATCH_ALL,
            roles, roles.length == 0 ? AtspiMapping.MATCH_ALL : AtspiMapping.MATCH_ANY,
            interfaces, AtspiMapping.MATCH_ALL, Boolean.FALSE};
    }
}
