package dev.saccade.pcp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBus;
import org.freedesktop.dbus.matchrules.DBusMatchRuleBuilder;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.messages.constants.MessageTypes;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A confirmation shown as a desktop notification with Allow and Deny on the session bus
 * ({@code org.freedesktop.Notifications}, the Desktop Notifications Specification; pcp §5.3, D26).
 * The answer is the server's {@code ActionInvoked} signal, taken only from the unique bus name
 * that owned {@code org.freedesktop.Notifications} when the notification was shown (the bus
 * daemon stamps the sender, so another client cannot forge it); dismissing the notification
 * denies. A server without the {@code actions} capability shows the text with the code only.
 *
 * <p>Threads: {@link #show} and {@link #withdraw} run on PCP's connection and expiry threads
 * (one D-Bus round trip each); signals arrive on dbus-java's thread and are answered on this
 * prompt's own thread, since an approval forwards the invocation and waits for the application.
 */
final class NotificationPrompt implements ConfirmationPrompt {
    static final String NOTIFICATIONS = "org.freedesktop.Notifications";
    static final String NOTIFICATIONS_PATH = "/org/freedesktop/Notifications";
    static final String ACTION_ALLOW = "allow";
    static final String ACTION_DENY = "deny";
    /** NotificationClosed's reason when the user dismissed it. */
    private static final long DISMISSED = 2;
    private static final Logger LOG = LoggerFactory.getLogger(NotificationPrompt.class);

    private final String address;
    private final ExecutorService answers = Executors.newSingleThreadExecutor(r -> {
        final Thread t = new Thread(r, "saccade-pcp-prompt");
        t.setDaemon(true);
        return t;
    });
    /** Shown notifications by the server's id; written by showing threads and the signal thread. */
    private final Map<Long, Shown> shown = new ConcurrentHashMap<>();
    /** Guarded by this. */
    private DBusConnection connection;
    /** Guarded by this. */
    private boolean closed;

    /** @param address the session bus; {@code null}: no bus, every prompt is {@link ConfirmationPrompt.Shown#NOT_SHOWN}. */
    NotificationPrompt(final String address) {
        this.address = address;
    }

    /**
     * The session bus of this process's environment: {@code DBUS_SESSION_BUS_ADDRESS}, else the
     * systemd user bus at {@code $XDG_RUNTIME_DIR/bus} when it exists.
     */
    static NotificationPrompt fromEnvironment(final Map<String, String> env) {
        final String given = env.get("DBUS_SESSION_BUS_ADDRESS");
        if (given != null && !given.isBlank()) {
            return new NotificationPrompt(given);
        }
        final String runtime = env.get("XDG_RUNTIME_DIR");
        if (runtime != null && Files.exists(Path.of(runtime, "bus"))) {
            return new NotificationPrompt("unix:path=" + Path.of(runtime, "bus"));
        }
        return new NotificationPrompt(null);
    }

    @Override
    public ConfirmationPrompt.Shown show(final Request request, final Answer answer) {
        if (address == null) {
            return ConfirmationPrompt.Shown.NOT_SHOWN;
        }
        try {
            final DBusConnection bus = connection();
            final NotificationsBus server = bus.getRemoteObject(NOTIFICATIONS, NOTIFICATIONS_PATH, NotificationsBus.class);
            final boolean actions = server.GetCapabilities().contains("actions"); // also starts an activatable server
            final String owner = bus.getRemoteObject("org.freedesktop.DBus", "/org/freedesktop/DBus", DBus.class)
                .GetNameOwner(NOTIFICATIONS);
            final String body = escape(request.body) + "\n\nOr in a terminal: saccade pcp confirm "
                + request.confirmationId + " " + request.code;
            final UInt32 id = server.Notify("Saccade", new UInt32(0), "dialog-question", request.summary, body,
                actions ? List.of(ACTION_ALLOW, "Allow", ACTION_DENY, "Deny") : List.of(),
                Map.of("urgency", new Variant<>((byte) 2), "resident", new Variant<>(Boolean.TRUE)),
                (int) Math.min(Integer.MAX_VALUE, request.windowMs));
            shown.put(id.longValue(), new Shown(request.confirmationId, owner, actions ? answer : null));
            LOG.info("event=pcp_confirmation_prompt confirmation_id={} notification={} actions={}",
                request.confirmationId, id, actions);
            return actions ? ConfirmationPrompt.Shown.WITH_ACTIONS : ConfirmationPrompt.Shown.TEXT_ONLY;
        } catch (final DBusException | RuntimeException e) {
            LOG.warn("event=pcp_confirmation_prompt_failed confirmation_id={} error={}", request.confirmationId, e.toString());
            return ConfirmationPrompt.Shown.NOT_SHOWN;
        }
    }

    private synchronized DBusConnection connection() throws DBusException {
        if (closed) {
            throw new DBusException("prompt closed");
        }
        if (connection == null || !connection.isConnected()) {
            connection = DBusConnectionBuilder.forAddress(address).withShared(false).build();
            connection.addGenericSigHandler(DBusMatchRuleBuilder.create().withType(MessageTypes.SIGNAL)
                .withInterface(NOTIFICATIONS).withMember("ActionInvoked").build(), this::onSignal);
            connection.addGenericSigHandler(DBusMatchRuleBuilder.create().withType(MessageTypes.SIGNAL)
                .withInterface(NOTIFICATIONS).withMember("NotificationClosed").build(), this::onSignal);
        }
        return connection;
    }

    /** ActionInvoked(id, key) or NotificationClosed(id, reason), on dbus-java's signal thread. */
    private void onSignal(final DBusSignal signal) {
        final Object[] args;
        try {
            args = signal.getParameters();
        } catch (final DBusException e) {
            return; // not the signal its name says: nothing of ours to answer
        }
        if (args.length != 2 || !(args[0] instanceof UInt32)) {
            return;
        }
        final long id = ((UInt32) args[0]).longValue();
        final Shown s = shown.get(id);
        if (s == null || !s.server.equals(signal.getSource())) {
            return; // another program's notification, or a sender that is not the server we asked
        }
        final boolean action = "ActionInvoked".equals(signal.getName());
        final boolean allow = action && ACTION_ALLOW.equals(args[1]);
        final boolean deny = action ? ACTION_DENY.equals(args[1])
            : args[1] instanceof UInt32 && ((UInt32) args[1]).longValue() == DISMISSED;
        if (!action && !deny) {
            shown.remove(id, s); // expired or closed by us: the confirmation's own expiry decides
            return;
        }
        if ((allow || deny) && shown.remove(id, s) && s.answer != null) {
            LOG.info("event=pcp_confirmation_answer confirmation_id={} allowed={}", s.confirmationId, allow);
            answers.execute(allow ? s.answer::allowed : s.answer::denied);
        }
    }

    @Override
    public void withdraw(final String confirmationId) {
        for (final Map.Entry<Long, Shown> e : shown.entrySet()) {
            if (e.getValue().confirmationId.equals(confirmationId) && shown.remove(e.getKey(), e.getValue())) {
                try {
                    connection().getRemoteObject(NOTIFICATIONS, NOTIFICATIONS_PATH, NotificationsBus.class)
                        .CloseNotification(new UInt32(e.getKey()));
                } catch (final DBusException | RuntimeException failure) {
                    LOG.debug("event=pcp_confirmation_prompt_close_failed confirmation_id={} error={}", confirmationId,
                        failure.toString());
                }
            }
        }
    }

    /** The notification body is markup for many servers: the application's text must stay text. */
    static String escape(final String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    @Override
    public synchronized void close() {
        closed = true;
        answers.shutdownNow();
        if (connection != null) {
            connection.disconnect();
            connection = null;
        }
    }

    /** One notification shown for a confirmation; {@code answer} null when it has no actions. Immutable. */
    private static final class Shown {
        final String confirmationId;
        final String server;
        final Answer answer;

        Shown(final String confirmationId, final String server, final Answer answer) {
            this.confirmationId = confirmationId;
            this.server = server;
            this.answer = answer;
        }
    }
}
