package dev.saccade.supervisor;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the session would accept an action now, and the one READY=1 to systemd. Ready means an
 * owner serves, so its first scene is published, and the owner says its input helper is attached
 * ({@code input up}; an owner that never says runs without one). Only then do `up`'s banner,
 * systemd's READY=1 and status's {@code "ready":true} say so; while a helper or owner is being
 * replaced, status says why not.
 *
 * <p>Written by the supervisor's conductor thread; {@link #notReady()} is read by the control thread.
 */
final class Readiness {
    private static final Logger LOG = LoggerFactory.getLogger(Readiness.class);

    private final SupervisorContext context;
    /** Why an action would not be accepted now, "" when it would. */
    private volatile String notReady = "no owner serves yet";
    private boolean notifiedSystemd;

    Readiness(final SupervisorContext context) {
        this.context = context;
    }

    /** Why an action would not be accepted now, "" when it would; any thread. */
    String notReady() {
        return notReady;
    }

    /** Recomputes readiness from the owner that serves now (null: none); says so once it changes. */
    void update(final OwnerProcess serving) {
        final String why;
        if (serving == null) {
            why = "no owner serves (starting or being replaced)";
        } else if (serving.input() == OwnerProcess.INPUT_DOWN) {
            why = "the owner's input helper is not attached (starting or being replaced)";
        } else {
            why = "";
        }
        if (why.equals(notReady)) {
            return;
        }
        notReady = why;
        LOG.info("event=readiness ready={} reason=\"{}\"", why.isEmpty(), why);
        if (why.isEmpty()) {
            context.onReady().accept(serving.pid());
            notifySystemd(SystemdNotifier.READY);
        }
    }

    /** Sends {@code message} (with READY=1) to systemd's notify socket, once per supervisor. */
    void notifySystemd(final String message) {
        if (notifiedSystemd) {
            return;
        }
        notifiedSystemd = true;
        try {
            if (SystemdNotifier.send(context.notifySocket(), message)) {
                LOG.info("event=notify_ready socket={}", context.notifySocket());
            }
        } catch (final IOException e) {
            LOG.warn("event=notify_failed socket={} error={}", context.notifySocket(), e.toString());
        }
    }
}
