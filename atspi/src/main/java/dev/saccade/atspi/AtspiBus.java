package dev.saccade.atspi;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBusSigHandler;
import org.freedesktop.dbus.matchrules.DBusMatchRule;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.types.Variant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to the AT-SPI2 accessibility bus, and the names on it. Every dbus-java call of
 * the package goes through here.
 *
 * <p>Thread safety: {@link #call} and {@link #send} may come from any thread (dbus-java queues
 * sends to its own sender thread); {@link #close()} from the thread that connected.
 */
final class AtspiBus implements AutoCloseable {
    static final String REGISTRY = "org.a11y.atspi.Registry";
    static final String ROOT_PATH = "/org/a11y/atspi/accessible/root";
    static final String REGISTRY_PATH = "/org/a11y/atspi/registry";
    static final String ACCESSIBLE = "org.a11y.atspi.Accessible";
    static final String COLLECTION = "org.a11y.atspi.Collection";
    static final String COMPONENT = "org.a11y.atspi.Component";
    static final String ACTION = "org.a11y.atspi.Action";
    static final String TEXT = "org.a11y.atspi.Text";
    static final String APPLICATION = "org.a11y.atspi.Application";
    static final String PROPERTIES = "org.freedesktop.DBus.Properties";
    static final String DBUS = "org.freedesktop.DBus";
    static final String DBUS_PATH = "/org/freedesktop/DBus";
    /** The session bus's accessibility service, its object and its status interface. */
    static final String A11Y_BUS = "org.a11y.Bus";
    static final String A11Y_BUS_PATH = "/org/a11y/bus";
    static final String A11Y_STATUS = "org.a11y.Status";
    /** {@code Collection.GetMatches(match rule, sort order, count, traverse)}. */
    static final String GET_MATCHES_SIGNATURE = "(aiia{ss}iaiiasib)uib";

    private static final Logger LOG = LoggerFactory.getLogger(AtspiBus.class);

    private final DBusConnection connection;
    private final byte endianness;

    private AtspiBus(final DBusConnection connection) {
        this.connection = connection;
        this.endianness = connection.getMessageFactory().getEndianess();
    }

    /**
     * Asks the session bus for the accessibility bus address ({@code org.a11y.Bus.GetAddress},
     * which starts at-spi-bus-launcher if needed), and with {@code enable} sets
     * {@code org.a11y.Status.IsEnabled} first (D50). Blocks the calling thread up to the timeout
     * per call.
     */
    static String accessibilityBusAddress(final String sessionBusAddress, final long timeoutMs, final boolean enable)
        throws DBusException, IOException {
        try (DBusConnection session = open(sessionBusAddress)) {
            final AtspiBus bus = new AtspiBus(session);
            if (enable) {
                final AtspiCall set = bus.callAndWait(A11Y_BUS, A11Y_BUS_PATH, PROPERTIES, "Set", "ssv", timeoutMs,
                    A11Y_STATUS, "IsEnabled", new Variant<>(Boolean.TRUE));
                if (!set.answered() || set.failed()) {
                    LOG.warn("event=atspi-enable-failed error=\"{}\"", set.answered() ? set.errorText() : "no answer");
                }
            }
            final AtspiCall call = bus.callAndWait(A11Y_BUS, A11Y_BUS_PATH, A11Y_BUS, "GetAddress", null, timeoutMs);
            final Object address = call.value();
            if (!(address instanceof String s) || s.isEmpty()) {
                throw new IOException("org.a11y.Bus.GetAddress: " + (call.answered() ? call.errorText() : "no answer within "
                    + timeoutMs + " ms"));
            }
            return s;
        }
    }

    /**
     * {@code org.a11y.Status.IsEnabled} on the session bus, as a desktop's settings would set it:
     * null if the bus did not answer within the timeout.
     */
    static Boolean accessibilityEnabled(final String sessionBusAddress, final long timeoutMs)
        throws DBusException, IOException {
        try (DBusConnection session = open(sessionBusAddress)) {
            final AtspiCall get = new AtspiBus(session).callAndWait(A11Y_BUS, A11Y_BUS_PATH, PROPERTIES, "Get", "ss",
                timeoutMs, A11Y_STATUS, "IsEnabled");
            return get.value() instanceof Boolean b ? b : null;
        }
    }

    static AtspiBus connect(final String accessibilityBusAddress) throws DBusException {
        return new AtspiBus(open(accessibilityBusAddress));
    }

    private static DBusConnection open(final String address) throws DBusException {
        // One thread per kind is plenty: we export nothing, and signal handlers only set flags.
        return DBusConnectionBuilder.forAddress(address)
            .withShared(false)
            .receivingThreadConfig()
            .withSignalThreadCount(1)
            .withErrorHandlerThreadCount(1)
            .withMethodCallThreadCount(1)
            .withMethodReturnThreadCount(1)
            .connectionConfig()
            .build();
    }

    /** Builds a call (not sent yet); its reply goes to {@code sink}. */
    AtspiCall call(
        final String destination,
        final String path,
        final String iface,
        final String member,
        final String signature,
        final Reply.Sink sink,
        final int kind,
        final int index,
        final Object... args) throws DBusException {
        return new AtspiCall(endianness, destination, path, iface, member, signature, sink, kind, index, args);
    }

    /** Queues a call for dbus-java's sender thread; never blocks on the bus. */
    void send(final AtspiCall call) {
        connection.sendMessage(call);
    }

    /** Sends every call of a batch (all built by this bus), then seals it. */
    void send(final CallBatch batch) {
        for (int i = 0, n = batch.calls.size(); i < n; i++) {
            connection.sendMessage((AtspiCall) batch.calls.get(i));
        }
        batch.seal();
    }

    /** Calls to one application through the bus daemon. */
    CallChannel channel(final String busName) {
        return new CallChannel() {
            @Override
            public Reply call(
                final CallBatch batch, final String path, final String iface, final String member,
                final String signature, final int kind, final int index, final Object... args) {
                try {
                    return batch.add(AtspiBus.this.call(busName, path, iface, member, signature, batch, kind, index, args));
                } catch (final DBusException e) {
                    throw new IllegalArgumentException("cannot marshal " + iface + "." + member + ": " + e.getMessage(), e);
                }
            }

            @Override
            public void send(final CallBatch batch) {
                AtspiBus.this.send(batch);
            }
        };
    }

    /** One call that blocks the calling thread until answered or the timeout: for start-up only. */
    AtspiCall callAndWait(
        final String destination, final String path, final String iface, final String member, final String signature,
        final long timeoutMs, final Object... args) throws DBusException {
        final CountDownLatch done = new CountDownLatch(1);
        final AtspiCall call = call(destination, path, iface, member, signature, c -> done.countDown(), 0, 0, args);
        send(call);
        try {
            done.await(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return call;
    }

    /** Adds a match rule on the bus and a handler (run on dbus-java's signal thread); kept until close. */
    void subscribe(final DBusMatchRule rule, final DBusSigHandler<DBusSignal> handler) throws DBusException {
        connection.addGenericSigHandler(rule, handler);
    }

    boolean isConnected() {
        return connection.isConnected();
    }

    String uniqueName() {
        return connection.getUniqueName();
    }

    @Override
    public void close() {
        connection.disconnect();
    }
}
