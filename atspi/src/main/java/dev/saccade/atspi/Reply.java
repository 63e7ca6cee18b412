package dev.saccade.atspi;

/**
 * A sent call's answer as the refresh reads it, whichever connection carried it: dbus-java's
 * ({@link AtspiCall}) or our peer-to-peer one ({@link PeerCall}).
 */
interface Reply {
    /** Receives each call's first answer on the thread that read it; must not block. */
    interface Sink {
        void replied(Reply reply);
    }

    /** What the call asks, for its sender: one of the sender's constants. */
    int kind();

    /** The node (or rule) the call is about: an index in its sender's list. */
    int index();

    boolean answered();

    /** Answered with a D-Bus error (or a local one: not sent, disconnected). */
    boolean failed();

    /** The D-Bus error name, e.g. {@code org.freedesktop.DBus.Error.UnknownObject}; null if none. */
    String errorName();

    /** The error's name and first argument, for diagnostics; null if none. */
    String errorText();

    /** The decoded reply body, or null if there is none, it was an error, or it cannot be decoded. */
    Object[] parameters();

    /** The first reply value, unwrapped from a variant; null if none. */
    default Object value() {
        final Object[] p = parameters();
        return p == null || p.length == 0 ? null : AtspiCall.unwrap(p[0]);
    }
}
