package dev.saccade.atspi;

import java.util.List;
import java.util.Map;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.messages.Error;
import org.freedesktop.dbus.messages.Message;
import org.freedesktop.dbus.messages.MethodCall;
import org.freedesktop.dbus.types.Variant;

/**
 * One dbus-java method call whose reply is pushed to a {@link Reply.Sink} instead of being waited for.
 *
 * <p>Why not dbus-java's proxies: a proxy call blocks its thread for one round trip (about
 * 0.3 ms here), so a tree of 190 objects read with five calls each takes 300 ms. Sent all at once
 * and collected by a sink, the same calls share their round trips. dbus-java's reader thread calls
 * {@link #setReply} once the reply (or an error, also the connection's own on disconnect) is in;
 * the sink must only count and hand over.
 *
 * <p>The reply body is decoded by {@link #parameters()} on the thread that reads it, not on the
 * reader thread.
 */
final class AtspiCall extends MethodCall implements Reply {
    private final Reply.Sink sink;
    private final int kind;
    private final int index;
    /** Written once by the reader thread, read by the thread that collects the batch. */
    private volatile Message answer;

    AtspiCall(
        final byte endianness,
        final String destination,
        final String path,
        final String iface,
        final String member,
        final String signature,
        final Reply.Sink sink,
        final int kind,
        final int index,
        final Object... args) throws DBusException {
        super(endianness, destination, path, iface, member, (byte) 0, signature, args);
        this.sink = sink;
        this.kind = kind;
        this.index = index;
    }

    @Override
    public void setReply(final Message reply) {
        final boolean first;
        synchronized (this) {
            // A failed send and a later disconnect can both answer one call: the first one counts.
            first = answer == null;
            if (first) {
                answer = reply;
            }
        }
        super.setReply(reply);
        if (first) {
            sink.replied(this);
        }
    }

    @Override
    public int kind() {
        return kind;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public boolean answered() {
        return answer != null;
    }

    @Override
    public boolean failed() {
        return answer instanceof Error;
    }

    @Override
    public String errorName() {
        final Message m = answer;
        return m instanceof Error ? m.getName() : null;
    }

    @Override
    public String errorText() {
        final Message m = answer;
        if (!(m instanceof Error)) {
            return null;
        }
        String text = m.getName();
        try {
            final Object[] args = m.getParameters();
            if (args != null && args.length > 0) {
                text += ": " + args[0];
            }
        } catch (final DBusException | RuntimeException ignore) {
            // reason: the name alone says enough when the error's text cannot be decoded
        }
        return text;
    }

    @Override
    public Object[] parameters() {
        final Message m = answer;
        if (m == null || m instanceof Error) {
            return null;
        }
        try {
            return m.getParameters();
        } catch (final DBusException | RuntimeException e) {
            return null;
        }
    }

    static Object unwrap(final Object o) {
        return o instanceof Variant<?> v ? v.getValue() : o;
    }

    /** A number reply (u, i, UInt32 ...) as a long, or {@code missing}. */
    static long asLong(final Object o, final long missing) {
        final Object v = unwrap(o);
        return v instanceof Number n ? n.longValue() : missing;
    }

    /** An {@code (so)} reference's path, or null. */
    static String referencePath(final Object o) {
        final Object v = unwrap(o);
        if (v instanceof Object[] ref && ref.length == 2) {
            return pathString(ref[1]);
        }
        if (v instanceof List<?> ref && ref.size() == 2) {
            return pathString(ref.get(1));
        }
        return null;
    }

    /** An {@code (so)} reference's bus name, or null. */
    static String referenceBusName(final Object o) {
        final Object v = unwrap(o);
        if (v instanceof Object[] ref && ref.length == 2) {
            return String.valueOf(ref[0]);
        }
        if (v instanceof List<?> ref && ref.size() == 2) {
            return String.valueOf(ref.get(0));
        }
        return null;
    }

    static String pathString(final Object o) {
        if (o instanceof DBusPath p) {
            return p.getPath();
        }
        return o == null ? null : o.toString();
    }

    /** Element {@code i} of an array reply (List or primitive/object array). */
    static long element(final Object array, final int i, final long missing) {
        final Object a = unwrap(array);
        if (a instanceof List<?> l) {
            return i < l.size() ? asLong(l.get(i), missing) : missing;
        }
        if (a instanceof Object[] o) {
            return i < o.length ? asLong(o[i], missing) : missing;
        }
        if (a instanceof int[] ints) {
            return i < ints.length ? ints[i] : missing;
        }
        if (a instanceof long[] longs) {
            return i < longs.length ? longs[i] : missing;
        }
        return missing;
    }

    static int length(final Object array) {
        final Object a = unwrap(array);
        if (a instanceof List<?> l) {
            return l.size();
        }
        if (a instanceof Object[] o) {
            return o.length;
        }
        if (a instanceof int[] ints) {
            return ints.length;
        }
        if (a instanceof long[] longs) {
            return longs.length;
        }
        return 0;
    }

    /** Element {@code i} of a list or object-array reply. */
    static Object item(final Object array, final int i) {
        final Object a = unwrap(array);
        if (a instanceof List<?> l) {
            return l.get(i);
        }
        if (a instanceof Object[] o) {
            return o[i];
        }
        return null;
    }

    /** A property from a GetAll reply ({@code a{sv}}), unwrapped; null if absent. */
    static Object property(final Object map, final String name) {
        final Object m = unwrap(map);
        return m instanceof Map<?, ?> props ? unwrap(props.get(name)) : null;
    }
}
