package dev.saccade.owner.atspi;

import static dev.saccade.owner.atspi.AtspiMapping.CLASS_OTHER;
import static dev.saccade.owner.atspi.AtspiMapping.CLASS_PASSWORD;
import static dev.saccade.owner.atspi.AtspiMapping.OFF_SCREEN;
import static dev.saccade.owner.atspi.ReplyKind.K_ACTION_COUNT;
import static dev.saccade.owner.atspi.ReplyKind.K_CHAR_COUNT;
import static dev.saccade.owner.atspi.ReplyKind.K_EXTENTS;
import static dev.saccade.owner.atspi.ReplyKind.K_PROPERTIES;

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
 */
final class DraftTree {
    /** The parent index of the application object's children. */
    static final int ROOT = -1;

    /** One object while its facts come in. */
    static final class Draft {
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
    private final int maxTextChars;
    private final List<Draft> drafts = new ArrayList<>();
    private final Map<String, Integer> indexByPath = new HashMap<>();
    /** Walk only: the application object's children, as indexes. */
    private final List<Integer> rootChildren = new ArrayList<>();
    /** Bulk only: each object's parent index, from GetAll (GetMatches lists carry no parents). */
    private int[] bulkParents;
    /** The object list arrived (else the application keeps its last nodes). */
    boolean listed;
    /** The budget cut the object list. */
    boolean truncated;

    DraftTree(final KnownApp app, final int maxTextChars) {
        this.app = app;
        this.maxTextChars = maxTextChars;
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

    /**
     * The nodes, in canonical order, each object's descendants left out with it where it vanished.
     *
     * @param walked the objects came from the walk (else from the bulk listing)
     */
    List<AccessibilityNode> buildNodes(final boolean walked) {
        final int n = drafts.size();
        final long[] ids = new long[n];
        final boolean[] skip = new boolean[n];
        final List<AccessibilityNode> built = new ArrayList<>(n);
        if (walked) {
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
}
