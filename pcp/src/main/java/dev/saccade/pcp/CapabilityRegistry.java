package dev.saccade.pcp;

import dev.saccade.pcp.CapabilityManifest.Capability;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The registered applications: each signed manifest that passed its checks (pcp §3.1,
 * "register.capability"; pcp §4), bound to the connection that registered it, looked up by
 * invocations and listed by query.capabilities (pcp §3.3), removed by revoke.app. Kept apart
 * from invocation so that who may register an {@code app_id} is decided in one place.
 */
final class CapabilityRegistry {
    /** Applications registered at once at most (pcp §9); those whose connection closed make room first. */
    static final int MAX_APPS = 256;
    /** Revocations by the host remembered at most, oldest forgotten first. */
    private static final int REVOKED_KEPT = 1024;
    private final TrustedKeys trustedKeys;
    private final AuditLog audit;
    /**
     * Written by connection threads at once (register.capability, revoke.app): a concurrent map
     * whose {@code compute} decides between two registrations of one {@code app_id}.
     */
    private final Map<String, RegisteredApp> apps = new ConcurrentHashMap<>();
    /**
     * The {@code app_id}s the user revoked on the host socket: a replayed signed manifest must not
     * bring them back (pcp §3.11). Guarded by itself.
     */
    private final Set<String> revokedByHost = Collections.newSetFromMap(new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, Boolean> eldest) {
            return size() > REVOKED_KEPT;
        }
    });

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
        final boolean revoked;
        synchronized (revokedByHost) {
            revoked = revokedByHost.contains(manifest.appId());
        }
        if (revoked) {
            throw refused(caller, manifest.appId(), PcpError.MANIFEST_INVALID, "revoked by the user",
                "Manifest invalid: app_id " + manifest.appId() + " was revoked by the user");
        }
        if (!apps.containsKey(manifest.appId()) && apps.size() >= MAX_APPS) {
            apps.values().removeIf(a -> !a.peer.isOpen()); // registrations without a live connection go first
            if (apps.size() >= MAX_APPS) {
                throw refused(caller, manifest.appId(), PcpError.RATE_LIMITED, "too many applications registered",
                    "Rate limited: " + MAX_APPS + " applications are registered");
            }
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

    private PcpError refused(final PcpPeer caller, final String appId, final int code, final String reason,
        final String message) {
        audit.append(JsonTree.object("event", "register.capability", "peer", caller.name(), "app_id", appId,
            "outcome", "error", "code", (long) code));
        return new PcpError(code, message, JsonTree.object("member", "app_id", "reason", reason));
    }

    /**
     * revoke.app: removes the registration of {@code appId}, asked by the connection that
     * registered it or by the host ({@code byHost}); a revocation by the host also refuses every
     * later registration of that {@code app_id}. -32000 when none is registered, -32004 for
     * anyone else.
     */
    RegisteredApp revoke(final String appId, final PcpPeer caller, final boolean byHost) throws PcpError {
        final RegisteredApp app = apps.get(appId);
        if (app == null) {
            throw PcpError.of(PcpError.APP_NOT_FOUND, JsonTree.object("app_id", appId));
        }
        if (!byHost && app.peer != caller) {
            throw new PcpError(PcpError.PERMISSION_DENIED, "Permission denied: only the connection that registered "
                + appId + " or the host may revoke it", JsonTree.object("app_id", appId, "reason", "not_registrant"));
        }
        if (byHost) {
            synchronized (revokedByHost) {
                revokedByHost.add(appId);
            }
        }
        if (!apps.remove(appId, app)) {
            throw PcpError.of(PcpError.APP_NOT_FOUND, JsonTree.object("app_id", appId)); // revoked meanwhile
        }
        return app;
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
