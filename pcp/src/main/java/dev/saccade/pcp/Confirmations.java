package dev.saccade.pcp;

import dev.saccade.pcp.CapabilityManifest.Capability;
import dev.saccade.pcp.CapabilityRegistry.RegisteredApp;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Host confirmations of {@code confirm} invocations (pcp §5.2, "Confirmations"): the pending
 * ones, their expiry, the user's decision (confirm forwards the invocation, deny refuses it), the
 * denial of an application's pending ones when it is revoked, and the kept outcomes a later
 * {@code invoke.capability} with {@code confirmation_id} reads. Each confirmation resolves
 * exactly once: whoever removes it from the pending map (confirm, deny, expiry, revocation) wins,
 * audits the resolution and tells the invoker with {@code confirmation.resolved}.
 */
final class Confirmations implements AutoCloseable {
    /** Notification telling an invoker how its confirmation ended. */
    static final String CONFIRMATION_RESOLVED = "confirmation.resolved";
    /** Pending confirmations at most: memory stays bounded however fast a caller asks. */
    static final int MAX_PENDING = 1024;
    /** Outcomes of resolved confirmations kept for a later invoke with {@code confirmation_id}. */
    private static final int RESOLVED_KEPT = 1024;

    private final CapabilityInvoker invoker;
    private final AuditLog audit;
    private final RandomIds ids;
    private final long windowMs;
    /** The one thread that expires confirmations. */
    private final ScheduledExecutorService scheduler;
    /**
     * Written by connection threads (invoke, confirm, deny, revoke.app) and the expiry thread at
     * once; {@code remove} decides which of them resolves a confirmation.
     */
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    /** Guarded by itself; insertion-ordered, oldest dropped past {@link #RESOLVED_KEPT}. */
    private final Map<String, Resolved> resolved = new LinkedHashMap<>(64, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, Resolved> eldest) {
            return size() > RESOLVED_KEPT;
        }
    };

    Confirmations(final CapabilityInvoker invoker, final AuditLog audit, final RandomIds ids, final long windowMs) {
        this.invoker = invoker;
        this.audit = audit;
        this.ids = ids;
        this.windowMs = windowMs;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "saccade-pcp-expiry");
            t.setDaemon(true);
            return t;
        });
    }

    /** Creates a pending confirmation; returns the -32005 to answer (or -32018 when too many are pending). */
    PcpError request(final PcpPeer caller, final RegisteredApp app, final Capability capability, final Map<?, ?> values) {
        if (pending.size() >= MAX_PENDING) {
            return new PcpError(PcpError.RATE_LIMITED, "Rate limited: " + MAX_PENDING + " confirmations are pending",
                JsonTree.object("retry_after_ms", windowMs));
        }
        final String id = "confirm-" + ids.hex(16);
        final Map<String, Object> data = JsonTree.object("capability_id", capability.id, "confirmation_id", id,
            "confirmation_type", capability.confirmationType, "undo_window_ms", windowMs,
            "description", capability.describe(values));
        final Pending p = new Pending(id, caller, app, capability, values, data);
        pending.put(id, p);
        p.expiry = scheduler.schedule(() -> expire(id), windowMs, TimeUnit.MILLISECONDS);
        return new PcpError(PcpError.CONFIRMATION_REQUIRED, "Confirmation required", data);
    }

    private static void cancelExpiry(final Pending p) {
        final ScheduledFuture<?> expiry = p.expiry;
        if (expiry != null) { // null only in the instant between put and schedule
            expiry.cancel(false);
        }
    }

    private void expire(final String id) {
        final Pending p = pending.remove(id);
        if (p != null) {
            finish(p, null, PcpError.of(PcpError.CONFIRMATION_EXPIRED, JsonTree.object("confirmation_id", id,
                "capability_id", p.capability.id)), "expired");
        }
    }

    /** The user approves: the invocation is forwarded and its CapabilityResult returned. */
    Map<String, Object> confirm(final String confirmationId) throws PcpError {
        final Pending p = take(confirmationId);
        try {
            final Map<String, Object> result = invoker.forward(p.app, p.capability, p.values);
            finish(p, result, null, "confirmed");
            return result;
        } catch (final PcpError e) {
            finish(p, null, e, "confirmed");
            throw e;
        }
    }

    /** The user refuses: the invoker is told -32006. */
    void deny(final String confirmationId) throws PcpError {
        final Pending p = take(confirmationId);
        finish(p, null, PcpError.of(PcpError.CONFIRMATION_DENIED, JsonTree.object("confirmation_id", confirmationId,
            "capability_id", p.capability.id)), "denied");
    }

    /** Denies every pending confirmation of {@code app}, which revoke.app has just removed. */
    void revoked(final RegisteredApp app) {
        for (final Pending p : pending.values()) {
            if (p.app == app && pending.remove(p.id, p)) {
                cancelExpiry(p);
                finish(p, null, new PcpError(PcpError.CONFIRMATION_DENIED, "Confirmation denied: application revoked",
                    JsonTree.object("confirmation_id", p.id, "app_id", app.appId)), "revoked");
            }
        }
    }

    private Pending take(final String confirmationId) throws PcpError {
        final Pending p = pending.remove(confirmationId);
        if (p != null) {
            cancelExpiry(p);
            return p;
        }
        final Resolved r;
        synchronized (resolved) {
            r = resolved.get(confirmationId);
        }
        if (r != null && r.error != null) {
            throw r.error; // already expired or denied: the same code the invoker gets
        }
        throw Params.invalidParams("confirmation_id", r == null ? "no such pending confirmation" : "already confirmed");
    }

    private void finish(final Pending p, final Map<String, Object> result, final PcpError error, final String how) {
        synchronized (resolved) {
            resolved.put(p.id, new Resolved(result, error));
        }
        final Map<String, Object> record = JsonTree.object("event", "confirmation", "confirmation_id", p.id,
            "capability_id", p.capability.id, "app_id", p.app.appId, "resolution", how,
            "outcome", error == null ? "ok" : "error");
        if (error != null) {
            record.put("code", (long) error.code());
        }
        audit.append(record);
        final Map<String, Object> note = JsonTree.object("confirmation_id", p.id, "capability_id", p.capability.id);
        if (error == null) {
            note.put("result", result);
        } else {
            note.put("error", error.errorObject());
        }
        p.invoker.notify(CONFIRMATION_RESOLVED, note);
    }

    /** invoke.capability with {@code confirmation_id}: -32005 while pending, then the result or the error. */
    Object outcome(final String confirmationId) throws PcpError {
        final Pending p = pending.get(confirmationId);
        if (p != null) {
            throw new PcpError(PcpError.CONFIRMATION_REQUIRED, "Confirmation required", p.data);
        }
        final Resolved r;
        synchronized (resolved) {
            r = resolved.get(confirmationId);
        }
        if (r == null) {
            throw Params.invalidParams("confirmation_id", "no such confirmation");
        }
        if (r.error != null) {
            throw r.error;
        }
        return r.result;
    }

    int pendingCount() {
        return pending.size();
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    /** One confirmation awaiting the user. */
    private static final class Pending {
        final String id;
        final PcpPeer invoker;
        final RegisteredApp app;
        final Capability capability;
        final Map<?, ?> values;
        final Map<String, Object> data;
        /** Written once by the requesting thread right after the pending entry is visible. */
        volatile ScheduledFuture<?> expiry;

        Pending(final String id, final PcpPeer invoker, final RegisteredApp app, final Capability capability,
            final Map<?, ?> values, final Map<String, Object> data) {
            this.id = id;
            this.invoker = invoker;
            this.app = app;
            this.capability = capability;
            this.values = values;
            this.data = data;
        }
    }

    /** How a confirmation ended: a result or an error. */
    private static final class Resolved {
        final Map<String, Object> result;
        final PcpError error;

        Resolved(final Map<String, Object> result, final PcpError error) {
            this.result = result;
            this.error = error;
        }
    }
}
