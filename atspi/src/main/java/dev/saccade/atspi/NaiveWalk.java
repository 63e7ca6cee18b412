package dev.saccade.atspi;

import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.types.UInt32;

/**
 * The baseline the source's refresh is measured against (bench/README.md): GetChildren
 * recursion, then four blocking calls per node, as a straightforward client reads a tree. Not
 * used by the source; one thread uses an instance.
 */
public final class NaiveWalk implements AutoCloseable {
    private static final long CALL_TIMEOUT_MS = 5_000;

    private final AtspiBus bus;
    private int capped;

    private NaiveWalk(final AtspiBus bus) {
        this.bus = bus;
    }

    public static NaiveWalk connect(final String accessibilityBusAddress) throws DBusException {
        return new NaiveWalk(AtspiBus.connect(accessibilityBusAddress));
    }

    /** Walks the application {@code busName}'s tree; returns the number of objects visited. */
    public int count(final String busName) throws DBusException {
        return walk(bus, busName, AtspiBus.ROOT_PATH, 0);
    }

    /**
     * The same walk with a bound: each object's {@code ChildCount} is asked first, and one with
     * more than {@code maxChildren} has only its first {@code maxChildren} children read, one
     * {@code GetChildAtIndex} each, never listed (a sheet's 2^30 cells would be built, D47); at
     * most {@code maxNodes} objects in all. {@link #capped()} says how many objects were cut.
     */
    public int count(final String busName, final int maxChildren, final int maxNodes) throws DBusException {
        capped = 0;
        return bounded(busName, AtspiBus.ROOT_PATH, 0, maxChildren, new int[] {maxNodes});
    }

    /** Objects whose children the last bounded walk cut (at the child bound or the node bound). */
    public int capped() {
        return capped;
    }

    private static int walk(final AtspiBus bus, final String busName, final String path, final int depth)
        throws DBusException {
        final Object children = bus.callAndWait(busName, path, AtspiBus.ACCESSIBLE, "GetChildren", null, CALL_TIMEOUT_MS)
            .value();
        int visited = 0;
        for (int i = 0, n = AtspiCall.length(children); i < n; i++) {
            final String child = AtspiCall.referencePath(AtspiCall.item(children, i));
            visit(bus, busName, child);
            visited += 1 + (depth < TreeWalk.MAX_WALK_DEPTH ? walk(bus, busName, child, depth + 1) : 0);
        }
        return visited;
    }

    private int bounded(final String busName, final String path, final int depth, final int maxChildren,
        final int[] left) throws DBusException {
        final Object count = bus.callAndWait(busName, path, AtspiBus.PROPERTIES, "Get", "ss", CALL_TIMEOUT_MS,
            AtspiBus.ACCESSIBLE, "ChildCount").value();
        final int n = (int) Math.max(0, Math.min(Integer.MAX_VALUE, AtspiCall.asLong(count, 0)));
        final int read = Math.min(Math.min(n, maxChildren), left[0]);
        if (read < n) {
            capped++;
        }
        Object children = null;
        if (n <= maxChildren) {
            children = bus.callAndWait(busName, path, AtspiBus.ACCESSIBLE, "GetChildren", null, CALL_TIMEOUT_MS).value();
        }
        int visited = 0;
        for (int i = 0; i < read && left[0] > 0; i++) {
            final String child = AtspiCall.referencePath(children != null && i < AtspiCall.length(children)
                ? AtspiCall.item(children, i)
                : bus.callAndWait(busName, path, AtspiBus.ACCESSIBLE, "GetChildAtIndex", "i", CALL_TIMEOUT_MS, i).value());
            if (child == null) {
                continue;
            }
            visit(bus, busName, child);
            left[0]--;
            visited += 1 + (depth < TreeWalk.MAX_WALK_DEPTH ? bounded(busName, child, depth + 1, maxChildren, left) : 0);
        }
        return visited;
    }

    private static void visit(final AtspiBus bus, final String busName, final String child) throws DBusException {
        bus.callAndWait(busName, child, AtspiBus.ACCESSIBLE, "GetRole", null, CALL_TIMEOUT_MS);
        bus.callAndWait(busName, child, AtspiBus.PROPERTIES, "Get", "ss", CALL_TIMEOUT_MS, AtspiBus.ACCESSIBLE, "Name");
        bus.callAndWait(busName, child, AtspiBus.ACCESSIBLE, "GetState", null, CALL_TIMEOUT_MS);
        bus.callAndWait(busName, child, AtspiBus.COMPONENT, "GetExtents", "u", CALL_TIMEOUT_MS, new UInt32(0));
    }

    @Override
    public void close() {
        bus.close();
    }
}
