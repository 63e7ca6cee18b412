package dev.saccade.pcp;

import dev.saccade.client.DecimalU64;
import dev.saccade.pcp.CapabilityManifest.Capability;
import dev.saccade.pcp.CapabilityRegistry.RegisteredApp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * PCP Core behind {@link PcpCore}: dispatches every method (pcp §3, "Methods") to the part that
 * holds its state ({@link CapabilityRegistry}, {@link Adapters}, {@link Confirmations},
 * {@link Subscriptions}), sends desktop queries and structural actions to the {@link PcpScene},
 * and writes the audit lines of invocations and revocations (pcp §10, "Audit log").
 *
 * <p>Threads: calls arrive on connection threads (and test threads) at once, so each part keeps
 * its state in concurrent maps and each confirmation resolves exactly once. One scheduler thread
 * expires confirmations. Waiting for an application's answer blocks only the calling connection.
 */
public final class PcpCoreService implements PcpCore, AutoCloseable {
    public static final String SOURCE_SYSTEM_INTELLIGENCE = CapabilityInvoker.SOURCE_SYSTEM_INTELLIGENCE;
    public static final Set<String> EVENT_TYPES = Subscriptions.EVENT_TYPES;
    /** Notification telling an invoker how its confirmation ended. */
    public static final String CONFIRMATION_RESOLVED = Confirmations.CONFIRMATION_RESOLVED;
    /** Pending confirmations at most: memory stays bounded however fast a caller asks. */
    public static final int MAX_PENDING = Confirmations.MAX_PENDING;
    /** Identifiers an invocation's audit line carries when the caller gave them as strings. */
    private static final String[] AUDITED_PARAMS = {"capability_id", "app_id", "source", "confirmation_id",
        "surface_id", "element_id", "action"};

    private final PcpScene scene;
    private final AuditLog audit;
    private final long startNs = System.nanoTime();
    private final String sessionId;
    private final CapabilityRegistry registry;
    private final Adapters adapters = new Adapters();
    private final CapabilityInvoker invoker;
    private final Confirmations confirmations;
    private final Subscriptions subscriptions;
    /** Written by connection threads as peers come and go (health.check's active_sessions). */
    private final Set<PcpPeer> sessions = ConcurrentHashMap.newKeySet();

    public PcpCoreService(final PcpScene scene, final TrustedKeys trustedKeys, final AuditLog audit,
        final long confirmationWindowMs, final long invocationTimeoutMs) {
        this(scene, trustedKeys, audit, confirmationWindowMs, invocationTimeoutMs,
            NotificationPrompt.fromEnvironment(System.getenv()));
    }

    PcpCoreService(final PcpScene scene, final TrustedKeys trustedKeys, final AuditLog audit,
        final long confirmationWindowMs, final long invocationTimeoutMs, final ConfirmationPrompt prompt) {
        final RandomIds ids = new RandomIds();
        this.scene = scene;
        this.audit = audit;
        this.sessionId = "session-" + ids.hex(8);
        this.registry = new CapabilityRegistry(trustedKeys, audit);
        this.invoker = new CapabilityInvoker(invocationTimeoutMs);
        this.confirmations = new Confirmations(invoker, audit, ids, confirmationWindowMs, prompt);
        this.subscriptions = new Subscriptions(ids);
    }

    /** A peer starts talking to us (counted in health.check's active_sessions). */
    public void connected(final PcpPeer peer) {
        sessions.add(peer);
    }

    @Override
    public Object call(final PcpPeer caller, final String method, final Map<String, Object> params) throws PcpError {
        switch (method) {
            case "register.capability": return registry.register(caller, params);
            case "register.adapter": return adapters.register(caller, params);
            case "query.capabilities": return registry.query(params);
            case "query.elements": return queryElements(params);
            case "query.surface": return querySurface(params);
            case "query.session_context": return querySessionContext();
            case "invoke.capability": return audited(caller, method, params, this::invokeCapability);
            case "invoke.action": return audited(caller, method, params, this::invokeAction);
            case "subscribe.events": return subscriptions.subscribe(caller, params);
            case "unsubscribe.events": return subscriptions.unsubscribe(caller, params);
            case "revoke.app": return revokeApp(caller, params, false);
            case "health.check": return healthCheck();
            default:
                throw new PcpError(PcpError.METHOD_NOT_FOUND, "Method not found", JsonTree.object("method", method));
        }
    }

    // --- queries --------------------------------------------------------------------------

    private Object queryElements(final Map<String, Object> params) throws PcpError {
        final String surfaceId = Params.requiredString(params, "surface_id");
        final String focusId = Params.optionalString(params, "focus_id");
        return desktop().elements(surfaceId, focusId);
    }

    private Object querySurface(final Map<String, Object> params) throws PcpError {
        final String surfaceId = Params.requiredString(params, "surface_id");
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

    /** Runs {@code invocation} and appends its audit line, ok or error, whatever happens. */
    private Object audited(final PcpPeer caller, final String method, final Map<String, Object> params,
        final Invocation invocation) throws PcpError {
        final Map<String, Object> record = JsonTree.object("event", method, "peer", caller.name());
        for (final String key : AUDITED_PARAMS) {
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

    /** invoke.capability's checks in the order of pcp §5.1, then by trust level. */
    private Object invokeCapability(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final String confirmationId = Params.optionalString(params, "confirmation_id");
        if (confirmationId != null) {
            return confirmations.outcome(confirmationId);
        }
        final String capabilityId = Params.requiredString(params, "capability_id");
        final String appId = Params.requiredString(params, "app_id");
        final String source = Params.requiredString(params, "source");
        if (!SOURCE_SYSTEM_INTELLIGENCE.equals(source)) {
            throw Params.invalidParams("source", "must be " + SOURCE_SYSTEM_INTELLIGENCE);
        }
        final Object values = params.getOrDefault("params", Map.of());
        if (!(values instanceof Map)) {
            throw Params.invalidParams("params", "must be an object");
        }
        final RegisteredApp app = registry.app(appId);
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
                throw confirmations.request(caller, app, capability, (Map<?, ?>) values);
            default:
                return invoker.forward(app, capability, (Map<?, ?>) values);
        }
    }

    @Override
    public Map<String, Object> confirm(final String confirmationId, final String code, final long confirmerPid)
        throws PcpError {
        return confirmations.confirm(confirmationId, code, confirmerPid);
    }

    @Override
    public void deny(final String confirmationId) throws PcpError {
        confirmations.deny(confirmationId);
    }

    private Object invokeAction(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final String elementId = Params.requiredString(params, "element_id");
        final String action = Params.requiredString(params, "action");
        final String surfaceId = Params.requiredString(params, "surface_id");
        if (!Set.of("activate", "select", "set_value", "scroll").contains(action)) {
            throw PcpError.of(PcpError.ACTION_NOT_SUPPORTED, JsonTree.object("action", action, "element_id", elementId));
        }
        final String generation = Params.optionalString(params, "generation");
        if (generation != null && (!DecimalU64.valid(generation) || DecimalU64.parse(generation) == 0)) {
            throw Params.invalidParams("generation", "is a generation as query.elements gives it: a decimal string");
        }
        return desktop().invokeAction(surfaceId, elementId, action, params.get("value"),
            generation == null ? 0 : DecimalU64.parse(generation));
    }

    // --- events ---------------------------------------------------------------------------

    /**
     * Pushes one event to every matching subscription: the seed's notification with the
     * subscription id, {@code payload}'s members and a timestamp in seconds.
     *
     * @return notifications sent.
     */
    public int publish(final String type, final String surfaceId, final String appId, final Map<String, Object> payload) {
        return subscriptions.publish(type, surfaceId, appId, payload);
    }

    /** Run before subscribe.events answers: the event source takes its baseline then. */
    public void subscriptionHook(final Runnable hook) {
        subscriptions.hook(hook);
    }

    /** Whether anyone listens: lets the event source skip diffing. */
    public boolean hasSubscribers() {
        return subscriptions.any();
    }

    // --- management -----------------------------------------------------------------------

    @Override
    public Object revokeByHost(final PcpPeer host, final Map<String, Object> params) throws PcpError {
        return revokeApp(host, params, true);
    }

    /**
     * revoke.app (pcp §3.11), by the registering connection or the host: registration,
     * subscriptions and pending confirmations end, in that order.
     */
    private Object revokeApp(final PcpPeer caller, final Map<String, Object> params, final boolean byHost) throws PcpError {
        final String appId = Params.requiredString(params, "app_id");
        final String reason = Params.optionalString(params, "reason");
        final RegisteredApp app = registry.revoke(appId, caller, byHost);
        final long terminated = subscriptions.terminate(appId, app.peer);
        confirmations.revoked(app);
        audit.append(JsonTree.object("event", "revoke.app", "peer", caller.name(), "app_id", appId,
            "reason", reason == null ? JsonTree.NULL : reason, "by_host", byHost, "terminated_subscriptions", terminated,
            "outcome", "ok"));
        return JsonTree.object("revoked", true, "terminated_subscriptions", terminated);
    }

    private Object healthCheck() {
        final List<Object> list = adapters.statuses(scene != null);
        return JsonTree.object("status", scene != null ? "ok" : "degraded", "adapters", list,
            "uptime_ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs),
            "active_sessions", (long) sessions.size(), "pending_confirmations", (long) confirmations.pendingCount());
    }

    @Override
    public void disconnected(final PcpPeer peer) {
        sessions.remove(peer);
        subscriptions.ended(peer);
        adapters.ended(peer);
        // The app stays registered: its invocations answer -32010 (gone) until it registers again.
    }

    public String sessionId() {
        return sessionId;
    }

    public int pendingConfirmations() {
        return confirmations.pendingCount();
    }

    @Override
    public void close() {
        confirmations.close();
    }

    /** The JSON-RPC error object of {@code e}. */
    public static Map<String, Object> errorObject(final PcpError e) {
        return e.errorObject();
    }
}
