package dev.saccade.atspi;

import static dev.saccade.atspi.DraftTree.ROOT;
import static dev.saccade.atspi.ReplyKind.K_CELL;
import static dev.saccade.atspi.ReplyKind.K_CHILDREN;
import static dev.saccade.atspi.ReplyKind.K_CHILD_COUNT;
import static dev.saccade.atspi.ReplyKind.K_INTERFACES;
import static dev.saccade.atspi.ReplyKind.K_NAME;
import static dev.saccade.atspi.ReplyKind.K_ROLE;
import static dev.saccade.atspi.ReplyKind.K_STATE;

/**
 * The tree walk stage of a refresh, for applications without {@code Collection} (Qt):
 * breadth-first, one batch per level with the children, role, state, interfaces and name of every
 * object of the level, until the budget (see {@link AppRefresh}). Fills the refresh's
 * {@link DraftTree}; source thread only.
 */
final class TreeWalk {
    /** A walk deeper than this is a cycle or a pathological tree. */
    static final int MAX_WALK_DEPTH = 64;
    /** Rows of a table that manages its descendants asked for their cells, from the top (D49). */
    static final int CELL_ROWS = 25;
    /** Columns of such a table asked for their cells: with {@link #CELL_ROWS}, at most 400 cells. */
    static final int CELL_COLUMNS = 16;
    /** The most children of an object that manages its descendants a walk lists ({@link KnownApp#listsManaged}). */
    static final int MAX_MANAGED_CHILDREN = CELL_ROWS * CELL_COLUMNS;
    private static final String TABLE = "org.a11y.atspi.Table";
    /** {@link #addChild}: the node budget is full. */
    private static final int FULL = -2;

    private final KnownApp app;
    private final CallChannel channel;
    private final DraftTree tree;
    private final int maxNodes;

    TreeWalk(final KnownApp app, final CallChannel channel, final DraftTree tree, final int maxNodes) {
        this.app = app;
        this.channel = channel;
        this.tree = tree;
        this.maxNodes = maxNodes;
    }

    /** Adds the first level's call to {@code batch}: the application object's children. */
    void askRoot(final CallBatch batch) {
        channel.call(batch, app.rootPath, AtspiBus.ACCESSIBLE, "GetChildren", null, K_CHILDREN, ROOT);
    }

    /** The application object's children could not be listed: {@code first} says why. */
    static boolean rootFailed(final Reply first) {
        return first.kind() == K_CHILDREN && first.index() == ROOT && first.failed();
    }

    /** Adds the calls for the level of drafts from {@code levelStart} on to {@code next}. */
    void askLevel(final CallBatch next, final int levelStart) {
        // The new level: role, state, interfaces, name and children of each object, all at once.
        for (int i = levelStart; i < tree.size(); i++) {
            final DraftTree.Draft d = tree.get(i);
            channel.call(next, d.path, AtspiBus.ACCESSIBLE, "GetRole", null, K_ROLE, i);
            channel.call(next, d.path, AtspiBus.ACCESSIBLE, "GetState", null, K_STATE, i);
            channel.call(next, d.path, AtspiBus.ACCESSIBLE, "GetInterfaces", null, K_INTERFACES, i);
            channel.call(next, d.path, AtspiBus.PROPERTIES, "Get", "ss", K_NAME, i, AtspiBus.ACCESSIBLE, "Name");
            if (app.guarded) {
                // its children wait for its state and count (askChildren): a batch more per level
                channel.call(next, d.path, AtspiBus.PROPERTIES, "Get", "ss", K_CHILD_COUNT, i, AtspiBus.ACCESSIBLE,
                    "ChildCount");
            } else if (d.depth < MAX_WALK_DEPTH) {
                channel.call(next, d.path, AtspiBus.ACCESSIBLE, "GetChildren", null, K_CHILDREN, i);
            }
        }
    }

    /**
     * Guarded walk ({@link KnownApp#guarded}): adds {@code GetChildren} of the drafts from
     * {@code from} on whose facts are in, except hidden ones (a closed menu's hundreds of items)
     * and those that manage their descendants or report more children than the budget could
     * take; such an object stays, its inside left out, and the tree is marked truncated.
     */
    void askChildren(final CallBatch batch, final int from) {
        for (int i = from, n = tree.size(); i < n; i++) {
            final DraftTree.Draft d = tree.get(i);
            if (d.dropped || d.depth >= MAX_WALK_DEPTH || d.reportedChildren == 0
                || (d.states & AtspiMapping.S_SHOWN) == 0) {
                continue; // hidden: left out of the scene with all inside it (§5.13), so not listed
            }
            final boolean managedListed = (app.listsManaged || visibleOnly(d))
                && d.reportedChildren <= MAX_MANAGED_CHILDREN;
            if ((d.manages && !managedListed) || d.reportedChildren < 0 || d.reportedChildren > maxNodes) {
                tree.truncated = true; // what it holds is left out: built on demand, or unbounded
                if (d.manages && d.table) {
                    askCells(batch, i);
                }
                continue;
            }
            channel.call(batch, d.path, AtspiBus.ACCESSIBLE, "GetChildren", null, K_CHILDREN, i);
        }
    }

    /**
     * A text document's body (LibreOffice Writer's): it manages its descendants, yet its children
     * are only the paragraphs on screen, however long the document (measured: 48 of a 2,000-line
     * document), so listing it is bounded by the window (D59).
     */
    private static boolean visibleOnly(final DraftTree.Draft d) {
        return d.role == AtspiMapping.ROLE_DOCUMENT_TEXT;
    }

    /**
     * The cells of a sheet's first rows and columns, asked one by one (D49): a bounded number of
     * objects where listing the table would make the application build all 2^30; those not on
     * screen are left out of the scene by their state like any object.
     */
    private void askCells(final CallBatch batch, final int table) {
        for (int row = 0; row < CELL_ROWS; row++) {
            for (int column = 0; column < CELL_COLUMNS; column++) {
                channel.call(batch, tree.get(table).path, TABLE, "GetAccessibleAt", "ii", K_CELL, table, row, column);
            }
        }
    }

    /** Reads a walk level's replies that are in: facts of the level, children for the next. */
    void readArrived(final CallBatch batch) {
        int cellTable = ROOT;
        int cell = 0;
        for (final Reply call : batch.calls) {
            if (!call.answered()) {
                if (call.kind() == K_CELL) {
                    cell = call.index() == cellTable ? cell + 1 : 0;
                    cellTable = call.index();
                }
                continue;
            }
            if (call.kind() == K_CHILDREN) {
                final Object[] reply = call.parameters();
                if (reply == null || reply.length == 0) {
                    continue;
                }
                final Object children = reply[0];
                for (int i = 0, n = AtspiCall.length(children); i < n; i++) {
                    if (addChild(call.index(), AtspiCall.referencePath(AtspiCall.item(children, i))) == FULL) {
                        break;
                    }
                }
                continue;
            }
            if (call.kind() == K_CELL) {
                cell = call.index() == cellTable ? cell + 1 : 0;
                cellTable = call.index();
                final int index = addChild(call.index(), AtspiCall.referencePath(call.value()));
                if (index >= 0) {
                    // the application makes a new object for each ask: the id goes by the cell's place
                    tree.get(index).idKey = tree.get(cellTable).path + '#' + cell / CELL_COLUMNS + ',' + cell % CELL_COLUMNS;
                }
                continue;
            }
            final DraftTree.Draft d = tree.get(call.index());
            if (call.failed()) {
                if (call.kind() == K_ROLE) {
                    d.dropped = true;
                }
                continue;
            }
            switch (call.kind()) {
                case K_ROLE -> {
                    d.role = (int) AtspiCall.asLong(call.value(), -1);
                    d.roleClass = AtspiMapping.roleClass(d.role);
                    if (app.listsManaged && d.parent != ROOT) {
                        // a Java tree's rows nest in the rows above them
                        final DraftTree.Draft above = tree.get(d.parent);
                        d.roleClass = above.roleClass == AtspiMapping.CLASS_TREE_ITEM
                            && d.roleClass == AtspiMapping.CLASS_LABEL ? AtspiMapping.CLASS_TREE_ITEM
                            : AtspiMapping.rowClass(above.role, d.roleClass);
                    }
                }
                case K_STATE -> {
                    final Object words = call.value();
                    d.states = AtspiMapping.states(AtspiCall.element(words, 0, 0), AtspiCall.element(words, 1, 0), app.leniency());
                    d.manages = (AtspiCall.element(words, 0, 0) & (1L << AtspiMapping.STATE_MANAGES_DESCENDANTS)) != 0;
                }
                case K_INTERFACES -> {
                    final Object names = call.value();
                    for (int i = 0, n = AtspiCall.length(names); i < n; i++) {
                        final String name = String.valueOf(AtspiCall.item(names, i));
                        d.interfaces |= AtspiMapping.interfaceBit(name);
                        d.table |= TABLE.equals(name);
                    }
                }
                case K_NAME -> {
                    if (call.value() instanceof String s) {
                        d.name = s;
                    }
                }
                case K_CHILD_COUNT -> d.reportedChildren = (int) AtspiCall.asLong(call.value(), -1);
                default -> {
                }
            }
        }
    }

    /** Lists {@code path} as the next child of draft {@code parent}: its index, -1 if not listed, FULL once the budget is. */
    private int addChild(final int parent, final String path) {
        if (path == null || tree.indexOf(path) != null || path.equals(app.rootPath)) {
            return -1;  // a cycle, or an object listed twice
        }
        if (tree.size() >= maxNodes) {
            tree.truncated = true;
            tree.budgetReached = true;
            return FULL;
        }
        final int index = tree.add(path, parent, parent == ROOT ? 0 : tree.get(parent).depth + 1);
        if (parent == ROOT) {
            tree.addRootChild(index);
        } else {
            tree.get(parent).addChild(index);
        }
        return index;
    }
}
