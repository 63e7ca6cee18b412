package dev.saccade.atspi;

import static dev.saccade.atspi.AtspiMapping.CLASS_OTHER;
import static dev.saccade.atspi.AtspiMapping.CLASS_PASSWORD;
import static dev.saccade.atspi.AtspiMapping.OFF_SCREEN;
import static dev.saccade.atspi.ReplyKind.K_ACTION_COUNT;
import static dev.saccade.atspi.ReplyKind.K_CHAR_COUNT;
import static dev.saccade.atspi.ReplyKind.K_EXTENTS;
import static dev.saccade.atspi.ReplyKind.K_PROPERTIES;
import static dev.saccade.atspi.ReplyKind.K_STATE;

import dev.saccade.desktop.AccessibilityNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects one {@link AppRefresh} found, while their facts come in from the listing and the
 * details, and the {@link AccessibilityNode}s they become at the end: canonical order, parents,
 * bounds, the text lane and stable ids. Both listings (the bulk one and the walk) fill it, so the
 * mapping to nodes is written once. Source thread only.
 *
 * <p>The scene does not see every object (§5.13 "Left out"): an
 * object that is not on screen is left out with its descendants, an object of no area is left
 * out alone, and a layout container (no
 * name, text, capability or Selection; filler, panel, scroll pane and the like) is left out while
 * its children move up to the nearest object that stays. Ids do not change: a kept object has the
 * id it has in the full tree.
 */
final class DraftTree {
    /** The parent index of the application object's children. */
    static final int ROOT = -1;
    /** {@code keptAt} of a hidden object: it and its descendants are left out of the scene. */
    private static final int HIDDEN = -2;
    /** How deep under a combo box its chosen item may sit: the combo, its menu or list, the item. */
    private static final int COMBO_VALUE_DEPTH = 3;

    /** One object while its facts come in. */
    static final class Draft {
        final String path;
        final int parent;
        final int depth;
        int roleClass = CLASS_OTHER;
        /** Walk only: its AT-SPI role, -1 while unknown. */
        int role = -1;
        /** Bulk only: the sum of the role rules matched, see {@link AtspiMapping#ROLE_CLASS_BITS}. */
        int roleCode;
        int states;
        /** Bulk only: listed by the rule for the rare states, so {@link #states} waits for GetState. */
        boolean rare;
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
        /** Walk only: its state says it manages its descendants (never listed, {@link KnownApp#guarded}). */
        boolean manages;
        /** Walk only: it has the {@code Table} interface, so its cells can be asked by row and column (D49). */
        boolean table;
        /** Guarded walk only: its {@code ChildCount}, -1 while unknown. */
        int reportedChildren = -1;
        /** What its target id goes by instead of its path (a table's cell: its place, D49), or null. */
        String idKey;
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
    private final int maxTextChars;
    /** Leave hidden objects and empty containers out of {@link #shownNodes()} (§5.13). */
    private final boolean collapse;
    private List<AccessibilityNode> shownNodes = List.of();
    /** {@link #builtView()} bit: the object was SHOWING and VISIBLE. */
    static final byte SHOWN_LAST = 1;
    /** {@link #builtView()} bit: inside an object the scene left out as not on screen. */
    static final byte INSIDE_HIDDEN_LAST = 2;
    /** {@link #builtView()} bit: listed by the rule for the rare states. */
    static final byte RARE_LAST = 4;
    /** Per node of the last {@link #buildNodes}: the *_LAST bits the next read's early details go by. */
    private byte[] builtView = new byte[0];
    private final List<Draft> drafts = new ArrayList<>();
    private final Map<String, Integer> indexByPath = new HashMap<>();
    /** Walk only: the application object's children, as indexes. */
    private final List<Integer> rootChildren = new ArrayList<>();
    /** Bulk only: each object's parent index, from GetAll (GetMatches lists carry no parents). */
    private int[] bulkParents;
    /** The object list arrived (else the application keeps its last nodes). */
    boolean listed;
    /** Something was left out of the object list: by design (D47) or by the node budget. */
    boolean truncated;
    /** The node budget cut the object list (a read to repeat), not only a guarded walk's design. */
    boolean budgetReached;

    DraftTree(final KnownApp app, final int maxTextChars, final boolean collapse) {
        this.app = app;
        this.maxTextChars = maxTextChars;
        this.collapse = collapse;
    }

    int size() {
        return drafts.size();
    }

    Draft get(final int index) {
        return drafts.get(index);
    }

    /** The index of the object at {@code path}, or null if not listed. */
    Integer indexOf(final String path) {
        return indexByPath.get(path);
    }

    /** Lists an object; returns its index. */
    int add(final String path, final int parent, final int depth) {
        final int index = drafts.size();
        indexByPath.put(path, index);
        drafts.add(new Draft(path, parent, depth));
        return index;
    }

    /** Walk only: {@code index} is a child of the application object. */
    void addRootChild(final int index) {
        rootChildren.add(index);
    }

    /** Puts one detail reply into draft {@code i}; false if the reply was not usable. */
    boolean applyDetail(final int kind, final int i, final Reply call) {
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
            case K_STATE -> {
                final Object words = call.value();
                if (AtspiCall.length(words) < 2) {
                    return false;
                }
                d.states = AtspiMapping.states(AtspiCall.element(words, 0, 0), AtspiCall.element(words, 1, 0), app.leniency());
                return true;
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
        if (bulkParents == null || bulkParents.length < drafts.size()) {
            final int from = bulkParents == null ? 0 : bulkParents.length;
            bulkParents = bulkParents == null ? new int[drafts.size()] : java.util.Arrays.copyOf(bulkParents, drafts.size());
            java.util.Arrays.fill(bulkParents, from, bulkParents.length, ROOT);
        }
        bulkParents[index] = parent;
    }

    /** Bulk only: draft {@code i}'s parent index as read (ROOT: the application object's child, or unread). */
    int bulkParent(final int i) {
        return bulkParents == null || i >= bulkParents.length ? ROOT : bulkParents[i];
    }

    /** Bulk only: sets draft {@code i}'s parent index ({@link SubtreeMerge}). */
    void bulkParent(final int i, final int parent) {
        parentByIndex(i, parent);
    }

    /**
     * Bulk only: whether draft {@code i}'s parent was read, so {@link #bulkParent(int)} is its
     * parent: every object the scene needs details of is asked it (an object that does not show
     * is not, with the collapse), unless it vanished.
     */
    boolean parentRead(final int i) {
        return bulkParents != null && !drafts.get(i).dropped && needsDetails(i);
    }

    /** A tree of no objects, read as this one is ({@link SubtreeMerge}). */
    DraftTree emptyCopy() {
        return new DraftTree(app, maxTextChars, collapse);
    }

    /** Lists an object of another tree with its facts as they are; its index, or -1 if its path is listed already. */
    int adopt(final Draft d) {
        if (indexByPath.containsKey(d.path)) {
            return -1;
        }
        final int index = drafts.size();
        indexByPath.put(d.path, index);
        drafts.add(d);
        return index;
    }

    /**
     * The nodes, in canonical order, each object's descendants left out with it where it vanished.
     * {@link #shownNodes()} then holds the scene's view of them.
     *
     * @param walked the objects came from the walk (else from the bulk listing)
     */
    List<AccessibilityNode> buildNodes(final boolean walked) {
        final int n = drafts.size();
        final int[] order = new int[n];
        int count = 0;
        if (walked) {
            // Depth-first from the application object: canonical order, like GetMatches gives.
            final int[] stack = new int[n + 1];
            for (final int r : rootChildren) {
                int top = 0;
                stack[top++] = r;
                while (top > 0) {
                    final int i = stack[--top];
                    order[count++] = i;
                    final Draft d = drafts.get(i);
                    for (int c = d.childCount - 1; c >= 0; c--) {
                        stack[top++] = d.children[c];
                    }
                }
            }
        } else {
            for (int i = 0; i < n; i++) {
                order[count++] = i;
            }
        }
        final int[] parents = new int[n];
        for (int k = 0; k < count; k++) {
            final int i = order[k];
            parents[i] = walked ? drafts.get(i).parent : bulkParents == null ? ROOT : bulkParents[i];
        }
        // A scroll pane scrolls when one of its scroll bars shows (GTK hides those it does not need).
        final boolean[] scrolls = new boolean[n];
        for (int k = 0; k < count; k++) {
            final int i = order[k];
            final Draft d = drafts.get(i);
            if (d.roleClass == AtspiMapping.CLASS_SCROLL_BAR && (d.states & AtspiMapping.S_SHOWN) != 0
                && parents[i] != ROOT && drafts.get(parents[i]).roleClass == AtspiMapping.CLASS_SCROLL_PANE) {
                scrolls[parents[i]] = true;
            }
        }
        final String[] values = comboValues(order, count, parents);
        final long[] ids = new long[n];
        final boolean[] skip = new boolean[n];
        /** The nearest kept object at or above each object (ROOT: none), for re-parenting. */
        final int[] keptAt = new int[n];
        final List<AccessibilityNode> built = new ArrayList<>(count);
        final List<AccessibilityNode> shown = new ArrayList<>(count);
        final byte[] view = new byte[count];
        for (int k = 0; k < count; k++) {
            final int i = order[k];
            final int parent = parents[i];
            final Draft d = drafts.get(i);
            if (d.dropped || (parent != ROOT && skip[parent])) {
                skip[i] = true;
                continue;
            }
            final AccessibilityNode node = node(d, parent == ROOT ? 0 : ids[parent], scrolls[i], values[i]);
            ids[i] = node.targetId();
            view[built.size()] = (byte) (((d.states & AtspiMapping.S_SHOWN) != 0 ? SHOWN_LAST : 0)
                | (parent != ROOT && keptAt[parent] == HIDDEN ? INSIDE_HIDDEN_LAST : 0) | (d.rare ? RARE_LAST : 0));
            built.add(node);
            final int above = parent == ROOT ? ROOT : keptAt[parent];
            keptAt[i] = above;
            if (!collapse) {
                keptAt[i] = i;
                shown.add(node);
            } else if (hidden(d, parent, keptAt)) {
                keptAt[i] = HIDDEN;
            } else if (!empty(d, node) && !(d.hasExtents && (d.width <= 0 || d.height <= 0))) {
                // (an object of no area is not on screen either, but what is inside it may be)
                keptAt[i] = i;
                shown.add(node.parentId() == (above == ROOT ? 0 : ids[above]) ? node
                    : node.withParent(above == ROOT ? 0 : ids[above]));
            }
        }
        shownNodes = Collections.unmodifiableList(collapse ? foldWrappers(shown) : shown);
        builtView = view;
        return Collections.unmodifiableList(built);
    }

    /**
     * Merges a nameless, textless object whose only kept child is a leaf offering everything it
     * does (GTK wraps the cells of each tree-view row in such a container cell, with the same
     * actions) with that child: the wrapper stays, the object the toolkit's Selection counts, with
     * the child's text, name, capabilities and states, and the child is left out.
     */
    private static List<AccessibilityNode> foldWrappers(final List<AccessibilityNode> shown) {
        final Map<Long, Integer> children = new HashMap<>();
        final Map<Long, AccessibilityNode> onlyChild = new HashMap<>();
        for (final AccessibilityNode n : shown) {
            if (n.parentId() != 0) {
                children.merge(n.parentId(), 1, Integer::sum);
                onlyChild.put(n.parentId(), n);
            }
        }
        final Map<Long, AccessibilityNode> merged = new HashMap<>();
        final java.util.Set<Long> absorbed = new java.util.HashSet<>();
        for (final AccessibilityNode n : shown) {
            final AccessibilityNode child = onlyChild.get(n.targetId());
            if (child != null && children.get(n.targetId()) == 1 && !children.containsKey(child.targetId())
                && n.name().isEmpty() && n.text().isEmpty() && (n.capabilities() & ~child.capabilities()) == 0
                && n.role() != dev.saccade.protocol.Role.WINDOW && n.role() != dev.saccade.protocol.Role.DIALOG
                && n.role() != dev.saccade.protocol.Role.LANDMARK) { // a region keeps its one heading or link (D53)
                merged.put(n.targetId(), n.absorbing(child));
                absorbed.add(child.targetId());
            }
        }
        if (merged.isEmpty()) {
            return shown;
        }
        final List<AccessibilityNode> out = new ArrayList<>(shown.size() - absorbed.size());
        for (final AccessibilityNode n : shown) {
            if (!absorbed.contains(n.targetId())) {
                out.add(merged.getOrDefault(n.targetId(), n));
            }
        }
        return out;
    }

    /**
     * Whether the scene needs draft {@code i}'s name, parent and text: always without the
     * collapse; with it only where the object shows, since one that does not is left out with
     * everything in it (GTK shows nothing inside an object it does not show, and an object that
     * shows names its own parent, so the tree above it is still known).
     */
    boolean needsDetails(final int i) {
        return !collapse || (drafts.get(i).states & AtspiMapping.S_SHOWN) != 0;
    }

    /** Per node of the last {@link #buildNodes} (same positions): its *_LAST bits. */
    byte[] builtView() {
        return builtView;
    }

    /** Whether node {@code j} of a last view has {@code bit}; {@code unknown} where the view does not cover it. */
    static boolean had(final byte[] view, final int j, final int bit, final boolean unknown) {
        return view == null || j >= view.length ? unknown : (view[j] & bit) != 0;
    }

    /**
     * Per draft, from what has arrived: inside an object known now not to be on screen (not
     * SHOWING and VISIBLE, or at the off-screen extents, or inside such an object), so the scene
     * leaves it out whatever its own extents. Follows the parent links (bulk: GetAll's parents,
     * walk: the levels); a parent whose extents are still to come counts as on screen.
     */
    boolean[] knownInsideHidden() {
        final int n = drafts.size();
        final boolean[] inside = new boolean[n];
        if (!collapse) {
            return inside; // everything is in the scene, with its bounds
        }
        // Both listings put a parent before its children (canonical order, the walk's levels).
        final boolean[] hidden = new boolean[n];
        for (int i = 0; i < n; i++) {
            final Draft d = drafts.get(i);
            final int parent = d.parent != ROOT ? d.parent : bulkParents == null || i >= bulkParents.length ? ROOT : bulkParents[i];
            inside[i] = parent != ROOT && parent < i && hidden[parent];
            hidden[i] = inside[i] || (d.states & AtspiMapping.S_SHOWN) == 0
                || d.hasExtents && (d.x == OFF_SCREEN || d.y == OFF_SCREEN);
        }
        return inside;
    }

    /** Whether {@link #needsDetails} held for node {@code j} of the last refresh, by its last view. */
    boolean neededDetails(final byte[] lastView, final int j) {
        return !collapse || had(lastView, j, SHOWN_LAST, true);
    }

    /** The scene's view of the last {@link #buildNodes}: hidden objects and empty containers left out (§5.13). */
    List<AccessibilityNode> shownNodes() {
        return shownNodes;
    }

    /**
     * Not on screen: not SHOWING and VISIBLE, scrolled out of view (the off-screen extents), or
     * inside such an object. Such objects and their descendants are left out of the scene.
     */
    private static boolean hidden(final Draft d, final int parent, final int[] keptAt) {
        return (parent != ROOT && keptAt[parent] == HIDDEN) || (d.states & AtspiMapping.S_SHOWN) == 0
            || d.x == OFF_SCREEN || d.y == OFF_SCREEN;
    }

    /** A layout container: no name, no text, no capability, no Selection, and not a structural role. */
    private static boolean empty(final Draft d, final AccessibilityNode node) {
        return d.name.isEmpty() && node.text().isEmpty() && node.capabilities() == 0
            && (d.interfaces & AtspiMapping.I_SELECTION) == 0 && !AtspiMapping.structural(d.roleClass);
    }

    /**
     * The current value of each combo box (D51): the name of the first SELECTED item within
     * {@link #COMBO_VALUE_DEPTH} levels under it (Chromium and Firefox keep a select's options in a
     * hidden menu or list, the chosen one selected), null where there is none.
     */
    private String[] comboValues(final int[] order, final int count, final int[] parents) {
        String[] values = null;
        for (int k = 0; k < count; k++) {
            final int i = order[k];
            final Draft d = drafts.get(i);
            if ((d.states & AtspiMapping.S_SELECTED) == 0 || d.name.isEmpty() || !isItem(d.roleClass)) {
                continue;
            }
            int combo = ROOT;
            int above = parents[i];
            for (int level = 0; level < COMBO_VALUE_DEPTH && above != ROOT && combo == ROOT; level++, above = parents[above]) {
                if (drafts.get(above).roleClass == AtspiMapping.CLASS_COMBO_BOX) {
                    combo = above;
                }
            }
            if (combo == ROOT && above == ROOT) {
                combo = comboBefore(order, k);
            }
            if (combo != ROOT) {
                if (values == null) {
                    values = new String[drafts.size()];
                }
                if (values[combo] == null) {
                    values[combo] = d.name;
                }
            }
        }
        return values == null ? new String[drafts.size()] : values;
    }

    /**
     * The combo box an item at position {@code k} of the canonical order belongs to when the
     * parents above it are unknown (a hidden menu's own parent is not read): back over its sibling
     * items, one menu or list, then the combo box; ROOT if the order says otherwise.
     */
    private int comboBefore(final int[] order, final int k) {
        int j = k - 1;
        while (j >= 0 && isItem(drafts.get(order[j]).roleClass)) {
            j--;
        }
        if (j < 1) {
            return ROOT;
        }
        final int list = drafts.get(order[j]).roleClass;
        final int combo = order[j - 1];
        return (list == AtspiMapping.CLASS_MENU || list == AtspiMapping.CLASS_LIST)
            && drafts.get(combo).roleClass == AtspiMapping.CLASS_COMBO_BOX ? combo : ROOT;
    }

    private static boolean isItem(final int roleClass) {
        return roleClass == AtspiMapping.CLASS_MENU_ITEM || roleClass == AtspiMapping.CLASS_LIST_ITEM;
    }

    private AccessibilityNode node(final Draft d, final long parentId, final boolean scrolls, final String value) {
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
        } else if (value != null) {
            text = value;
        } else if (d.content != null && !d.content.isEmpty()) {
            text = d.content;
            truncatedText = d.charCount > maxTextChars;
        } else {
            text = d.name;
        }
        final int role = AtspiMapping.targetRole(d.roleClass, d.states);
        final int caps = AtspiMapping.capabilities(d.roleClass, d.states, d.interfaces, d.actionCount, scrolls);
        final int flags = AtspiMapping.flags(d.roleClass, d.states, caps, onScreen, truncatedText);
        final int states = AtspiMapping.targetStates(d.roleClass, d.states);
        final long id = AtspiTargetIds.of(app.idSeed, d.idKey != null ? d.idKey : d.path, d.roleClass);
        return new AccessibilityNode(id, parentId, role, caps, flags, states, x, y, width, height, text, d.name, app.pid,
            app.busName, d.path);
    }
}
