package dev.saccade.pcp;

import dev.saccade.pcp.CapabilityManifest.Capability;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * PCP Core: the capability registry, adapters, confirmations, subscriptions and the audit trail,
 * behind {@link PcpCore}. Every method of the seed is dispatched here; desktop queries and
 * structural actions go to the {@link PcpScene}.
 *
 * <p>Threads: calls arrive on connection threads (and test threads) at once, so state lives in
 * concurrent maps and each confirmation resolves exactly once (a {@code remove} from the pending
 * map decides who wins between confirm, deny and expiry). One scheduler thread expires
 * confirmations. Waiting for an application's answer blocks only the calling connection.
 */
public final class PcpCoreService implements PcpCore, AutoCloseable {
    public static final String SOURCE_SYSTEM_INTELLIGENCE = "SystemIntelligence";
    public static final Set<String> EVENT_TYPES = Set.of("surface.focus_changed", "surface.created",
        "surface.destroyed", "element.state_changed", "generation.published");
    /** Notification telling an invoker how its confirmation ended. */
    public static final String CONFIRMATION_RESOLVED = "confirmation.resolved";
    /** Pending confirmations at most: memory stays bounded however fast a caller asks. */
    public static final int MAX_PENDING = 1024;
    /** Outcomes of resolved confirmations kept for a later invoke with {@code confirmation_id}. */
    private static final int RESOLVED_KEPT = 1024;

    private final PcpScene scene;
    private final TrustedKeys trustedKeys;
    private final AuditLog audit;
    private final long confirmationWindowMs;
    private final long invocationTimeoutMs;
    private final long startNs = System.nanoTime();
    private final String sessionId;
    private final SecureRandom random = new SecureRandom();
    private final ScheduledExecutorService scheduler;

    private final Map<String, RegisteredApp> apps = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> adapters = new ConcurrentHashMap<>();
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Set<PcpPeer> sessions = ConcurrentHashMap.newKeySet();
    private volatile Runnable subscriptionHook;
    /** Guarded by itself; insertion-ordered, oldest dropped past {@link #RESOLVED_KEPT}. */
    private final Map<String, Resolved> resolved = new LinkedHashMap<>(64, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, Resolved> eldest) {
            return size() > RESOLVED_KEPT;
        }
    };

    public PcpCoreService(final PcpScene scene, final TrustedKeys trustedKeys, final AuditLog audit,
        final long confirmationWindowMs, final long invocationTimeoutMs) {
        this.scene = scene;
        this.trustedKeys = trustedKeys;
        this.audit = audit;
        this.confirmationWindowMs = confirmationWindowMs;
        this.invocationTimeoutMs = invocationTimeoutMs;
        this.sessionId = "session-" + token(8);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "saccade-pcp-expiry");
            t.setDaemon(true);
            return t;
        });
        builtInAdapter("x11", "x11");
        builtInAdapter("atspi2", "atspi2");
    }

    private void builtInAdapter(final String id, final String surfaceType) {
        adapters.put(id, JsonTree.object("adapter_id", id, "surface_type", surfaceType,
            "supported_tiers", List.of(0L, 1L, 2L, 3L), "built_in", true));
    }

    /** A peer starts talking to us (counted in health.check's active_sessions). */
    public void connected(final PcpPeer peer) {
        sessions.add(peer);
    }

    @Override
    public Object call(final PcpPeer caller, final String method, final Map<String, Object> params) throws PcpError {
        switch (method) {
            case "register.capability": return registerCapability(caller, params);
            case "register.adapter": return registerAdapter(params);
            case "query.capabilities": return queryCapabilities(params);
            case "query.elements": return queryElements(params);
            case "query.surface": return querySurface(params);
            case "query.session_context": return querySessionContext();
            case "invoke.capability": return audited(caller, method, params, this::invokeCapability);
            case "invoke.action": return audited(caller, method, params, this::invokeAction);
            case "subscribe.events": return subscribe(caller, params);
            case "unsubscribe.events": return unsubscribe(caller, params);
            case "revoke.app": return revokeApp(caller, params);
            case "health.check": return healthCheck();
            default:
                throw new PcpError(PcpError.METHOD_NOT_FOUND, "Method not found", JsonTree.object("method", method));
        }
    }

    // --- registration -------------------------------------------------------------------

    private Object registerCapability(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final CapabilityManifest manifest;
        try {
            manifest = CapabilityManifest.parse(params.get("app_id"), params.get("manifest"));
            @SuppressWarnings("unchecked")
            final Map<String, Object> raw = (Map<String, Object>) params.get("manifest");
            trustedKeys.verify(raw);
        } catch (final PcpError e) {
            audit.append(JsonTree.object("event", "register.capability", "peer", caller.name(),
                "app_id", String.valueOf(params.get("app_id")), "outcome", "error", "code", (long) e.code()));
            throw e;
        }
        final Map<String, Capability> byId = new LinkedHashMap<>();
        final List<Object> ids = new ArrayList<>();
        for (final Capability c : manifest.capabilities()) {
            byId.put(c.id, c);
            ids.add(c.id);
        }
        final RegisteredApp registered = new RegisteredApp(manifest.appId(), caller, byId);
        final RegisteredApp before = apps.compute(manifest.appId(),
            (id, old) -> old != null && old.peer != caller && old.peer.isOpen() ? old : registered);
        if (before != registered) {
            // A signed manifest can be replayed; it must not take invocations away from a live application.
            audit.append(JsonTree.object("event", "register.capability", "peer", caller.name(), "app_id", manifest.appId(),
                "outcome", "error", "code", (long) PcpError.MANIFEST_INVALID));
            throw new PcpError(PcpError.MANIFEST_INVALID, "Manifest invalid: app_id " + manifest.appId()
                + " is registered by another live connection", JsonTree.object("member", "app_id",
                "reason", "registered by another live connection"));
        }
        audit.append(JsonTree.object("event", "register.capability", "peer", caller.name(), "app_id", manifest.appId(),
            "outcome", "ok", "capability_ids", ids));
        return JsonTree.object("registered", true, "capability_ids", ids);
    }

    private Object registerAdapter(final Map<String, Object> params) throws PcpError {
        final String surfaceType = requiredString(params, "surface_type");
        final String adapterId = requiredString(params, "adapter_id");
        final Object tiers = params.get("supported_tiers");
        if (!(tiers instanceof List)) {
            throw invalidParams("supported_tiers", "must be an array of integers");
        }
        for (final Object t : (List<?>) tiers) {
            if (!(t instanceof Long) || (Long) t < 0 || (Long) t > CapabilityManifest.MAX_TIER) {
                throw invalidParams("supported_tiers", "must hold integers 0.." + CapabilityManifest.MAX_TIER);
            }
        }
        final Map<String, Object> adapter = JsonTree.object("adapter_id", adapterId, "surface_type", surfaceType,
            "supported_tiers", tiers, "built_in", false);
        // A built-in adapter or one bound before keeps its binding: bound=false, not a takeover.
        final boolean bound = adapters.putIfAbsent(adapterId, adapter) == null;
        return JsonTree.object("bound", bound, "adapter_id", adapterId);
    }

    // --- queries --------------------------------------------------------------------------

    private Object queryCapabilities(final Map<String, Object> params) throws PcpError {
        final String appId = optionalString(params, "app_id");
        final Object tier = params.get("tier");
        if (tier != null && !(tier instanceof Long)) {
            throw invalidParams("tier", "must be an integer");
        }
        final List<Object> out = new ArrayList<>();
        for (final RegisteredApp app : apps.values()) {
            if (appId != null && !appId.equals(app.appId)) {
                continue;
            }
            for (final Capability c : app.capabilities.values()) {
                if (tier == null || c.tier == (Long) tier) {
                    out.add(c.toJson());
                }
            }
        }
        return JsonTree.object("capabilities", out);
    }

    private Object queryElements(final Map<String, Object> params) throws PcpError {
        final String surfaceId = requiredString(params, "surface_id");
        final String focusId = optionalString(params, "focus_id");
        return desktop().elements(surfaceId, focusId);
    }

    private Object querySurface(final Map<String, Object> params) throws PcpError {
        final String surfaceId = requiredString(params, "surface_id");
        for (final Map<String, Object> surface : desktop().surfaces()) {
            if (surfaceId.equals(surface.get("surface_id"))) {
                return surface;
            }
        }
        throw PcpError.of(PcpError.SURFACE_NOT_FOUND, JsonTree.object("surface_id", surfaceId));
    }

    private Object querySessionContext() throws PcpError {
        Object focused = JsonTree.NULL;
        final List<Object> active = new ArrayList<>();
        for (final Map<String, Object> surface : desktop().surfaces()) {
            active.add(surface.get("surface_id"));
            if ("focused".equals(surface.get("state"))) {
                focused = surface.get("surface_id");
            }
        }
        return JsonTree.object("session_id", sessionId, "focused_surface", focused, "active_surfaces", active,
            "system_state", desktop().systemState());
    }

    private PcpScene desktop() throws PcpError {
        if (scene == null) {
            throw new PcpError(PcpError.NO_ATSPI2_SUPPORT, "No desktop scene is attached to this PCP Core");
        }
        return scene;
    }

    // --- invocation -----------------------------------------------------------------------

    private interface Invocation {
        Object run(PcpPeer caller, Map<String, Object> params) throws PcpError;
    }

    private Object audited(final PcpPeer caller, final String method, final Map<String, Object> params,
        final Invocation invocation) throws PcpError {
        final Map<String, Object> record = JsonTree.object("event", method, "peer", caller.name());
        for (final String key : new String[] {"capability_id", "app_id", "source", "confirmation_id", "surface_id",
            "element_id", "action"}) {
            final Object value = params.get(key);
            if (value instanceof String) {
                record.put(key, value);
            }
        }
        try {
            final Object result = invocation.run(caller, params);
            record.put("outcome", "ok");
            return result;
        } catch (final PcpError e) {
            record.put("outcome", "error");
            record.put("code", (long) e.code());
            if (e.data() != null && e.data().get("confirmation_id") != null) {
                record.put("confirmation_id", e.data().get("confirmation_id"));
            }
            throw e;
        } finally {
            audit.append(record);
        }
    }

    private Object invokeCapability(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final String confirmationId = optionalString(params, "confirmation_id");
        if (confirmationId != null) {
            return confirmationOutcome(confirmationId);
        }
        final String capabilityId = requiredString(params, "capability_id");
        final String appId = requiredString(params, "app_id");
        final String source = requiredString(params, "source");
        if (!SOURCE_SYSTEM_INTELLIGENCE.equals(source)) {
            throw invalidParams("source", "must be " + SOURCE_SYSTEM_INTELLIGENCE);
        }
        final Object values = params.getOrDefault("params", Map.of());
        if (!(values instanceof Map)) {
            throw invalidParams("params", "must be an object");
        }
        final RegisteredApp app = apps.get(appId);
        if (app == null) {
            throw PcpError.of(PcpError.APP_NOT_FOUND, JsonTree.object("app_id", appId));
        }
        final Capability capability = app.capabilities.get(capabilityId);
        if (capability == null) {
            throw PcpError.of(PcpError.CAPABILITY_NOT_FOUND, JsonTree.object("capability_id", capabilityId, "app_id", appId));
        }
        capability.check((Map<?, ?>) values);
        if (!app.peer.isOpen()) {
            // Asking the user to approve what cannot run would waste the confirmation.
            throw PcpError.of(PcpError.APP_UNRESPONSIVE, JsonTree.object("app_id", appId, "reason", "connection closed"));
        }
        switch (capability.trustLevel) {
            case "deny":
                throw PcpError.of(PcpError.PERMISSION_DENIED, JsonTree.object("capability_id", capabilityId,
                    "trust_level", "deny"));
            case "confirm":
                throw requestConfirmation(caller, app, capability, (Map<?, ?>) values);
            default:
                return forward(app, capability, (Map<?, ?>) values);
        }
    }

    /** Sends the invocation to the registering connection and waits for its CapabilityResult. */
    private Map<String, Object> forward(final RegisteredApp app, final Capability capability, final Map<?, ?> values)
        throws PcpError {
        if (!app.peer.isOpen()) {
            throw PcpError.of(PcpError.APP_UNRESPONSIVE, JsonTree.object("app_id", app.appId, "reason", "connection closed"));
        }
        @SuppressWarnings("unchecked")
        final Map<String, Object> request = JsonTree.object("capability_id", capability.id, "app_id", app.appId,
            "source", SOURCE_SYSTEM_INTELLIGENCE, "params", new LinkedHashMap<>((Map<String, Object>) values));
        final java.util.concurrent.CompletableFuture<Object> answer = app.peer.request("invoke.capability", request);
        final Object result;
        try {
            result = answer.get(invocationTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (final TimeoutException e) {
            answer.cancel(false);
            throw PcpError.of(PcpError.EXECUTION_TIMEOUT, JsonTree.object("capability_id", capability.id,
                "timeout_ms", invocationTimeoutMs));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw PcpError.of(PcpError.EXECUTION_TIMEOUT, JsonTree.object("capability_id", capability.id));
        } catch (final CancellationException e) {
            throw PcpError.of(PcpError.APP_UNRESPONSIVE, JsonTree.object("app_id", app.appId));
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof PcpError) {
                throw (PcpError) e.getCause(); // the application's own error object
            }
            throw PcpError.of(PcpError.APP_UNRESPONSIVE, JsonTree.object("app_id", app.appId,
                "reason", e.getCause() instanceof IOException ? "connection closed" : String.valueOf(e.getCause())));
        }
        return capabilityResult(capability, result);
    }

    private static Map<String, Object> capabilityResult(final Capability capability, final Object result) throws PcpError {
        if (result instanceof Map) {
            final Object status = ((Map<?, ?>) result).get("status");
            if ("success".equals(status) || "partial".equals(status) || "deferred".equals(status)) {
                final Map<String, Object> out = JsonTree.object("status", status);
                final Object data = ((Map<?, ?>) result).get("data");
                if (data != null) {
                    out.put("data", data);
                }
                return out;
            }
        }
        throw new PcpError(PcpError.INTERNAL_ERROR, "The application answered something other than a CapabilityResult",
            JsonTree.object("capability_id", capability.id));
    }

    private PcpError requestConfirmation(final PcpPeer caller, final RegisteredApp app, final Capability capability,
        final Map<?, ?> values) {
        if (pending.size() >= MAX_PENDING) {
            return new PcpError(PcpError.RATE_LIMITED, "Rate limited: " + MAX_PENDING + " confirmations are pending",
                JsonTree.object("retry_after_ms", confirmationWindowMs));
        }
        final String id = "confirm-" + token(16);
        final Map<String, Object> data = JsonTree.object("capability_id", capability.id, "confirmation_id", id,
            "confirmation_type", capability.confirmationType, "undo_window_ms", confirmationWindowMs,
            "description", capability.describe(values));
        final Pending p = new Pending(id, caller, app, capability, values, data);
        pending.put(id, p);
        p.expiry = scheduler.schedule(() -> expire(id), confirmationWindowMs, TimeUnit.MILLISECONDS);
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

    @Override
    public Map<String, Object> confirm(final String confirmationId) throws PcpError {
        final Pending p = take(confirmationId);
        try {
            final Map<String, Object> result = forward(p.app, p.capability, p.values);
            finish(p, result, null, "confirmed");
            return result;
        } catch (final PcpError e) {
            finish(p, null, e, "confirmed");
            throw e;
        }
    }

    @Override
    public void deny(final String confirmationId) throws PcpError {
        final Pending p = take(confirmationId);
        finish(p, null, PcpError.of(PcpError.CONFIRMATION_DENIED, JsonTree.object("confirmation_id", confirmationId,
            "capability_id", p.capability.id)), "denied");
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
        throw invalidParams("confirmation_id", r == null ? "no such pending confirmation" : "already confirmed");
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
            note.put("error", errorObject(error));
        }
        p.invoker.notify(CONFIRMATION_RESOLVED, note);
    }

    private Object confirmationOutcome(final String confirmationId) throws PcpError {
        final Pending p = pending.get(confirmationId);
        if (p != null) {
            throw new PcpError(PcpError.CONFIRMATION_REQUIRED, "Confirmation required", p.data);
        }
        final Resolved r;
        synchronized (resolved) {
            r = resolved.get(confirmationId);
        }
        if (r == null) {
            throw invalidParams("confirmation_id", "no such confirmation");
        }
        if (r.error != null) {
            throw r.error;
        }
        return r.result;
    }

    private Object invokeAction(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final String elementId = requiredString(params, "element_id");
        final String action = requiredString(params, "action");
        final String surfaceId = requiredString(params, "surface_id");
        if (!Set.of("activate", "select", "set_value", "scroll").contains(action)) {
            throw PcpError.of(PcpError.ACTION_NOT_SUPPORTED, JsonTree.object("action", action, "element_id", elementId));
        }
        return desktop().invokeAction(surfaceId, elementId, action, params.get("value"));
    }

    // --- events ---------------------------------------------------------------------------

    private Object subscribe(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final Object types = params.get("event_types");
        if (!(types instanceof List) || ((List<?>) types).isEmpty()) {
            throw invalidParams("event_types", "must be a non-empty array of event types");
        }
        final List<Object> active = new ArrayList<>();
        for (final Object t : (List<?>) types) {
            if (!EVENT_TYPES.contains(t)) {
                throw invalidParams("event_types", "unknown event type " + t + "; known: " + EVENT_TYPES);
            }
            if (!active.contains(t)) {
                active.add(t);
            }
        }
        final Subscription s = new Subscription("sub-" + token(8), caller, Set.copyOf(active),
            optionalString(params, "surface_id"), optionalString(params, "app_id"));
        subscriptions.put(s.id, s);
        final Runnable hook = subscriptionHook;
        if (hook != null) {
            hook.run();
        }
        return JsonTree.object("subscription_id", s.id, "active_events", active);
    }

    private Object unsubscribe(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final String id = requiredString(params, "subscription_id");
        final Subscription s = subscriptions.get(id);
        // Only the subscriber may cancel: another connection gets the same answer as for no such id.
        final boolean cancelled = s != null && s.peer == caller && subscriptions.remove(id, s);
        return JsonTree.object("cancelled", cancelled);
    }

    /**
     * Pushes one event to every matching subscription: the seed's notification with the
     * subscription id, {@code payload}'s members and a timestamp in seconds.
     *
     * @return notifications sent.
     */
    public int publish(final String type, final String surfaceId, final String appId, final Map<String, Object> payload) {
        int sent = 0;
        for (final Subscription s : subscriptions.values()) {
            if (!s.types.contains(type) || (s.surfaceId != null && !s.surfaceId.equals(surfaceId))
                || (s.appId != null && !s.appId.equals(appId))) {
                continue;
            }
            final Map<String, Object> params = JsonTree.object("subscription_id", s.id);
            params.putAll(payload);
            params.put("timestamp", System.currentTimeMillis() / 1000);
            if (s.peer.notify(type, params)) {
                sent++;
            }
        }
        return sent;
    }

    /** Run before subscribe.events answers: the event source takes its baseline then. */
    public void subscriptionHook(final Runnable hook) {
        subscriptionHook = hook;
    }

    /** Whether anyone listens: lets the event source skip diffing. */
    public boolean hasSubscribers() {
        return !subscriptions.isEmpty();
    }

    // --- management -----------------------------------------------------------------------

    private Object revokeApp(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final String appId = requiredString(params, "app_id");
        final String reason = optionalString(params, "reason");
        final RegisteredApp app = apps.remove(appId);
        if (app == null) {
            throw PcpError.of(PcpError.APP_NOT_FOUND, JsonTree.object("app_id", appId));
        }
        long terminated = 0;
        for (final Subscription s : subscriptions.values()) {
            if ((appId.equals(s.appId) || s.peer == app.peer) && subscriptions.remove(s.id, s)) {
                terminated++;
            }
        }
        for (final Pending p : pending.values()) {
            if (p.app == app && pending.remove(p.id, p)) {
                cancelExpiry(p);
                finish(p, null, new PcpError(PcpError.CONFIRMATION_DENIED, "Confirmation denied: application revoked",
                    JsonTree.object("confirmation_id", p.id, "app_id", appId)), "revoked");
            }
        }
        audit.append(JsonTree.object("event", "revoke.app", "peer", caller.name(), "app_id", appId,
            "reason", reason == null ? JsonTree.NULL : reason, "terminated_subscriptions", terminated, "outcome", "ok"));
        return JsonTree.object("revoked", true, "terminated_subscriptions", terminated);
    }

    private Object healthCheck() {
        final List<Object> list = new ArrayList<>();
        for (final Map<String, Object> a : adapters.values()) {
            final boolean builtIn = Boolean.TRUE.equals(a.get("built_in"));
            list.add(JsonTree.object("adapter_id", a.get("adapter_id"), "surface_type", a.get("surface_type"),
                "status", !builtIn || scene != null ? "ok" : "down"));
        }
        return JsonTree.object("status", scene != null ? "ok" : "degraded", "adapters", list,
            "uptime_ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs),
            "active_sessions", (long) sessions.size(), "pending_confirmations", (long) pending.size());
    }

    @Override
    public void disconnected(final PcpPeer peer) {
        sessions.remove(peer);
        for (final Subscription s : subscriptions.values()) {
            if (s.peer == peer) {
                subscriptions.remove(s.id, s);
            }
        }
        // The app stays registered: its invocations answer -32010 (gone) until it registers again.
    }

    public String sessionId() {
        return sessionId;
    }

    public int pendingConfirmations() {
        return pending.size();
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    // --- helpers --------------------------------------------------------------------------

    /** The JSON-RPC error object of {@code e}. */
    public static Map<String, Object> errorObject(final PcpError e) {
        final Map<String, Object> error = JsonTree.object("code", (long) e.code(), "message", e.getMessage());
        if (e.data() != null) {
            error.put("data", e.data());
        }
        return error;
    }

    private String token(final int bytes) {
        final byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static String requiredString(final Map<String, Object> params, final String name) throws PcpError {
        final Object value = params.get(name);
        if (!(value instanceof String) || ((String) value).isEmpty()) {
            throw invalidParams(name, "is required and must be a non-empty string");
        }
        return (String) value;
    }

    static String optionalString(final Map<String, Object> params, final String name) throws PcpError {
        final Object value = params.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String)) {
            throw invalidParams(name, "must be a string");
        }
        return (String) value;
    }

    static PcpError invalidParams(final String name, final String reason) {
        return new PcpError(PcpError.INVALID_PARAMS, "Invalid params: " + name + " " + reason,
            JsonTree.object("parameter", name, "reason", reason));
    }

    private static final class RegisteredApp {
        final String appId;
        final PcpPeer peer;
        final Map<String, Capability> capabilities;

        RegisteredApp(final String appId, final PcpPeer peer, final Map<String, Capability> capabilities) {
            this.appId = appId;
            this.peer = peer;
            this.capabilities = capabilities;
        }
    }

    private static final class Pending {
        final String id;
        final PcpPeer invoker;
        final RegisteredApp app;
        final Capability capability;
        final Map<?, ?> values;
        final Map<String, Object> data;
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

    private static final class Resolved {
        final Map<String, Object> result;
        final PcpError error;

        Resolved(final Map<String, Object> result, final PcpError error) {
            this.result = result;
            this.error = error;
        }
    }

    private static final class Subscription {
        final String id;
        final PcpPeer peer;
        final Set<Object> types;
        final String surfaceId;
        final String appId;

        Subscription(final String id, final PcpPeer peer, final Set<Object> types, final String surfaceId, final String appId) {
            this.id = id;
            this.peer = peer;
            this.types = types;
            this.surfaceId = surfaceId;
            this.appId = appId;
        }
    }
}
