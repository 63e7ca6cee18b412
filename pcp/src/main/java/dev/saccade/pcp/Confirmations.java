package dev.saccade.pcp;

import dev.saccade.pcp.CapabilityManifest.Capability;
import dev.saccade.pcp.CapabilityRegistry.RegisteredApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Host confirmations of {@code confirm} invocations (pcp §5.2, "Confirmations"): the pending
 * ones, their expiry, the user's decision (confirm forwards the invocation, deny refuses it), the
 * denial of an application's pending ones when it is revoked, and the kept outcomes a later
 * {@code invoke.capability} with {@code confirmation_id} reads. Each confirmation resolves
 * exactly once: whoever removes it from the pending map (confirm, deny, expiry, revocation) wins,
 * audits the resolution and tells the invoker with {@code confirmation.resolved}.
 *
 * <p>Only the user approves (pcp §5.3, D26): each confirmation is shown on the
 * {@link ConfirmationPrompt} with a code the requester never sees; the prompt's Allow approves,
 * and so does the host socket's {@code confirm} with that code from a process that is neither the
 * requester nor one of its descendants.
 */
final class Confirmations implements AutoCloseable {
    /** Notification telling an invoker how its confirmation ended. */
    static final String CONFIRMATION_RESOLVED = "confirmation.resolved";
    /** Pending confirmations at most: memory stays bounded however fast a caller asks. */
    static final int MAX_PENDING = 1024;
    /** Outcomes of resolved confirmations kept for a later invoke with {@code confirmation_id}. */
    private static final int RESOLVED_KEPT = 1024;
    /** Digits of the code shown to the user. */
    static final int CODE_DIGITS = 6;
    /** Wrong codes for one confirmation before it is denied: guessing stays hopeless. */
    static final int WRONG_CODES_ALLOWED = 3;
    /** Parents followed from a confirming process looking for the requester; a chain ends long before. */
    private static final int MAX_ANCESTRY = 4096;

    private final CapabilityInvoker invoker;
    private final AuditLog audit;
    private final RandomIds ids;
    private final long windowMs;
    private final ConfirmationPrompt prompt;
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

    Confirmations(final CapabilityInvoker invoker, final AuditLog audit, final RandomIds ids, final long windowMs,
        final ConfirmationPrompt prompt) {
        this.invoker = invoker;
        this.prompt = prompt;
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
        final ProcessHandle requester = caller.pid() > 0 ? ProcessHandle.of(caller.pid()).orElse(null) : null;
        final Pending p = new Pending(id, caller, app, capability, values, data, requester, ids.digits(CODE_DIGITS));
        pending.put(id, p);
        p.expiry = scheduler.schedule(() -> expire(id), windowMs, TimeUnit.MILLISECONDS);
        final ConfirmationPrompt.Shown shown = prompt.show(new ConfirmationPrompt.Request(id,
            "Saccade: " + capability.id + " asks for your approval", capability.describe(values) + "\nAsked by "
            + requesterText(requester) + " for " + app.appId + ".", p.code, windowMs), new ConfirmationPrompt.Answer() {
                @Override
                public void allowed() {
                    answered(id, true);
                }

                @Override
                public void denied() {
                    answered(id, false);
                }
            });
        if (shown == ConfirmationPrompt.Shown.NOT_SHOWN && pending.remove(id, p)) {
            // Nobody can see it, so nobody may approve it: refused now rather than left to expire.
            cancelExpiry(p);
            final PcpError refused = new PcpError(PcpError.CONFIRMATION_DENIED, "Confirmation denied: the user cannot be "
                + "asked (no notification server on the session bus)", JsonTree.object("confirmation_id", id,
                "capability_id", capability.id, "reason", "no_prompt"));
            finish(p, null, refused, "no_prompt");
            return refused;
        }
        data.put("prompt", shown == ConfirmationPrompt.Shown.WITH_ACTIONS ? "notification" : "notification_text");
        return new PcpError(PcpError.CONFIRMATION_REQUIRED, "Confirmation required", data);
    }

    private static String requesterText(final ProcessHandle requester) {
        if (requester == null) {
            return "a caller of unknown process";
        }
        return requester.info().command().map(c -> Path.of(c).getFileName() + " (pid " + requester.pid() + ")")
            .orElse("pid " + requester.pid());
    }

    /** The prompt's answer: the user clicked Allow or Deny (or dismissed it). */
    private void answered(final String confirmationId, final boolean allow) {
        try {
            if (allow) {
                forward(take(confirmationId), "confirmed");
            } else {
                deny(confirmationId);
            }
        } catch (final PcpError e) {
            // Already resolved (expired, decided on the host socket), or the application failed:
            // the invoker has been told either way.
        }
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

    /**
     * {@code saccade pcp confirm ID CODE} on the host socket: the user approves with the code the
     * prompt showed, from a process that did not ask (pcp §5.3); the invocation is forwarded and
     * its CapabilityResult returned.
     *
     * @param confirmerPid the host socket peer's process, -1 when unknown.
     */
    Map<String, Object> confirm(final String confirmationId, final String code, final long confirmerPid) throws PcpError {
        final Pending p = pending.get(confirmationId);
        if (p == null) {
            take(confirmationId); // throws the answer for a resolved or unknown id
        } else {
            if (selfOrDescendant(confirmerPid, p.requester)) {
                audit.append(JsonTree.object("event", "confirmation_refused", "confirmation_id", confirmationId,
                    "reason", "self_confirmation", "confirmer_pid", confirmerPid));
                throw new PcpError(PcpError.PERMISSION_DENIED, "Permission denied: a confirmation cannot be given by the "
                    + "process that asked for it or by its descendants; the user answers it", JsonTree.object(
                    "confirmation_id", confirmationId, "reason", "self_confirmation"));
            }
            if (code == null || !java.security.MessageDigest.isEqual(code.getBytes(StandardCharsets.UTF_8),
                p.code.getBytes(StandardCharsets.UTF_8))) {
                final boolean last = p.wrongCodes.incrementAndGet() >= WRONG_CODES_ALLOWED;
                if (last && pending.remove(confirmationId, p)) {
                    cancelExpiry(p);
                    finish(p, null, PcpError.of(PcpError.CONFIRMATION_DENIED, JsonTree.object("confirmation_id",
                        confirmationId, "capability_id", p.capability.id, "reason", "wrong_code")), "wrong_code");
                }
                throw new PcpError(PcpError.PERMISSION_DENIED, "Permission denied: the code is not the one shown to the "
                    + "user", JsonTree.object("confirmation_id", confirmationId, "reason", "wrong_code",
                    "denied", last));
            }
        }
        return forward(take(confirmationId), "confirmed");
    }

    private Map<String, Object> forward(final Pending p, final String how) throws PcpError {
        try {
            final Map<String, Object> result = invoker.forward(p.app, p.capability, p.values);
            finish(p, result, null, how);
            return result;
        } catch (final PcpError e) {
            finish(p, null, e, how);
            throw e;
        }
    }

    /**
     * Whether {@code confirmerPid} is the requester or descends from it, walking the confirmer's
     * parents through /proc; a confirmer of unknown process counts as the requester. The handles
     * compare pid and start time, so a reused pid is not mistaken for the requester.
     */
    static boolean selfOrDescendant(final long confirmerPid, final ProcessHandle requester) {
        if (requester == null) {
            return false; // asked over TCP or in process: the code alone decides
        }
        if (confirmerPid <= 0) {
            return true;
        }
        java.util.Optional<ProcessHandle> p = ProcessHandle.of(confirmerPid);
        for (int hops = 0; p.isPresent() && hops < MAX_ANCESTRY; hops++) {
            if (p.get().equals(requester)) {
                return true;
            }
            p = p.get().parent();
        }
        return false;
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
        prompt.withdraw(p.id);
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
        prompt.close();
    }

    /** One confirmation awaiting the user. */
    private static final class Pending {
        final String id;
        final PcpPeer invoker;
        final RegisteredApp app;
        final Capability capability;
        final Map<?, ?> values;
        final Map<String, Object> data;
        /** The invoking process, {@code null} when unknown (TCP, in process). */
        final ProcessHandle requester;
        /** Shown to the user only; never in a reply, a log line or the audit trail. */
        final String code;
        final AtomicInteger wrongCodes = new AtomicInteger();
        /** Written once by the requesting thread right after the pending entry is visible. */
        volatile ScheduledFuture<?> expiry;

        Pending(final String id, final PcpPeer invoker, final RegisteredApp app, final Capability capability,
            final Map<?, ?> values, final Map<String, Object> data, final ProcessHandle requester, final String code) {
            this.id = id;
            this.requester = requester;
            this.code = code;
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
