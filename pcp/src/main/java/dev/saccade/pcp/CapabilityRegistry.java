package dev.saccade.pcp;

import dev.saccade.pcp.CapabilityManifest.Capability;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The registered applications: each signed manifest that passed its checks (pcp §3.1,
 * "register.capability"; pcp §4), bound to the connection that registered it, looked up by
 * invocations and listed by query.capabilities (pcp §3.3), removed by revoke.app. Kept apart
 * from invocation so that who may register an {@code app_id} is decided in one place.
 */
final class CapabilityRegistry {
    private final TrustedKeys trustedKeys;
    private final AuditLog audit;
    /**
     * Written by connection threads at once (register.capability, revoke.app): a concurrent map
     * whose {@code compute} decides between two registrations of one {@code app_id}.
     */
    private final Map<String, RegisteredApp> apps = new ConcurrentHashMap<>();

    CapabilityRegistry(final TrustedKeys trustedKeys, final AuditLog audit) {
        this.trustedKeys = trustedKeys;
        this.audit = audit;
    }

    /** register.capability: validates, verifies, binds the application to {@code caller}; audited. */
    Object register(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
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

    /** query.capabilities: every registered capability, filtered by {@code app_id} and {@code tier}. */
    Object query(final Map<String, Object> params) throws PcpError {
        final String appId = Params.optionalString(params, "app_id");
        final Object tier = params.get("tier");
        if (tier != null && !(tier instanceof Long)) {
            throw Params.invalidParams("tier", "must be an integer");
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

    /** The registration of {@code appId}, or {@code null}. */
    RegisteredApp app(final String appId) {
        return apps.get(appId);
    }

    /** Removes the registration of {@code appId}; {@code null} when there was none. */
    RegisteredApp revoke(final String appId) {
        return apps.remove(appId);
    }

    /** One application's manifest as registered, and the connection its invocations go to. Immutable. */
    static final class RegisteredApp {
        final String appId;
        final PcpPeer peer;
        final Map<String, Capability> capabilities;

        RegisteredApp(final String appId, final PcpPeer peer, final Map<String, Capability> capabilities) {
            this.appId = appId;
            this.peer = peer;
            this.capabilities = capabilities;
        }
    }
}
