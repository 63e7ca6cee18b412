package dev.saccade.desktop;

import java.util.List;
import java.util.Objects;

/**
 * One application on the accessibility bus and its nodes as last refreshed.
 *
 * @param busName unique name on the accessibility bus, e.g. {@code ":1.23"}
 * @param pid process id from the bus daemon; 0 if it would not say
 * @param name the application object's accessible name (usually the program name)
 * @param nodes the objects below the application object in canonical (document, pre-order)
 *     order: a parent before its children, siblings in their order
 * @param complete the last refresh read the whole tree in time; false if it hit the node budget
 *     or the deadline, or failed (then {@link #nodes} may be the ones from an earlier refresh)
 * @param collection the application answers {@code org.a11y.atspi.Collection} (bulk refresh);
 *     false means the bounded walk was used
 * @param error why the last refresh was incomplete, or null
 * @param refreshedNs {@link System#nanoTime()} when its nodes were last read
 * @param windowRelative its nodes' bounds are relative to the window of their top-level object,
 *     not the desktop (GTK 4 on X11 answers so, D46): the composer moves them by that window
 */
public record AccessibleApplication(
    String busName,
    long pid,
    String name,
    List<AccessibilityNode> nodes,
    boolean complete,
    boolean collection,
    String error,
    long refreshedNs,
    boolean windowRelative) {

    public AccessibleApplication {
        Objects.requireNonNull(busName, "busName");
        Objects.requireNonNull(name, "name");
        nodes = List.copyOf(nodes);
    }

    /** An application whose nodes' bounds are desktop coordinates. */
    public AccessibleApplication(final String busName, final long pid, final String name,
        final List<AccessibilityNode> nodes, final boolean complete, final boolean collection, final String error,
        final long refreshedNs) {
        this(busName, pid, name, nodes, complete, collection, error, refreshedNs, false);
    }

    /** Same application state, ignoring when it was read. */
    boolean sameContent(final AccessibleApplication other) {
        return busName.equals(other.busName) && pid == other.pid && name.equals(other.name)
            && complete == other.complete && collection == other.collection && windowRelative == other.windowRelative && Objects.equals(error, other.error)
            && nodes.equals(other.nodes);
    }
}
