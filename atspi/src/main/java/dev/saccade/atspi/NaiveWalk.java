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

    private static int walk(final AtspiBus bus, final String busName, final String path, final int depth)
        throws DBusException {
        final Object children = bus.callAndWait(busName, path, AtspiBus.ACCESSIBLE, "GetChildren", null, CALL_TIMEOUT_MS)
            .value();
        int visited = 0;
        for (int i = 0, n = AtspiCall.length(children); i < n; i++) {
            final String child = AtspiCall.referencePath(AtspiCall.item(children, i));
            bus.callAndWait(busName, child, AtspiBus.ACCESSIBLE, "GetRole", null, CALL_TIMEOUT_MS);
            bus.callAndWait(busName, child, AtspiBus.PROPERTIES, "Get", "ss", CALL_TIMEOUT_MS, AtspiBus.ACCESSIBLE, "Name");
            bus.callAndWait(busName, child, AtspiBus.ACCESSIBLE, "GetState", null, CALL_TIMEOUT_MS);
            bus.callAndWait(busName, child, AtspiBus.COMPONENT, "GetExtents", "u", CALL_TIMEOUT_MS, new UInt32(0));
            visited += 1 + (depth < TreeWalk.MAX_WALK_DEPTH ? walk(bus, busName, child, depth + 1) : 0);
        }
        return visited;
    }

    @Override
    public void close() {
        bus.close();
    }
}
