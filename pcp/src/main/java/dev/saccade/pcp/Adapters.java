package dev.saccade.pcp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The surface adapters PCP knows (pcp §3.2, "register.adapter"): the built-in {@code x11} and
 * {@code atspi2}, and those bound by register.adapter. A binding is never taken over, so a
 * caller cannot replace a built-in adapter; health.check reports each one's status (pcp §3.12).
 * A bound adapter belongs to the connection that bound it and ends with it; each connection and
 * all together bind a bounded number (pcp §9).
 */
final class Adapters {
    /** Adapters one connection may bind (pcp §9). */
    static final int MAX_PER_CONNECTION = 16;
    /** Adapters bound by register.adapter at once, all connections together. */
    static final int MAX_BOUND = 64;
    /** The longest {@code adapter_id} or {@code surface_type}. */
    static final int MAX_ID_CHARS = 128;
    /** Written by connection threads at once (register.adapter, a connection's end); guarded by this. */
    private final Map<String, Map<String, Object>> adapters = new LinkedHashMap<>();
    /** Who bound each adapter of {@link #adapters} that is not built in; guarded by this. */
    private final Map<String, PcpPeer> owners = new HashMap<>();

    Adapters() {
        builtIn("x11", "x11");
        builtIn("atspi2", "atspi2");
    }

    private void builtIn(final String id, final String surfaceType) {
        adapters.put(id, JsonTree.object("adapter_id", id, "surface_type", surfaceType,
            "supported_tiers", List.of(0L, 1L, 2L, 3L), "built_in", true));
    }

    /** register.adapter: binds the adapter to {@code caller}'s connection unless its id is bound already. */
    synchronized Object register(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final String surfaceType = bounded(params, "surface_type");
        final String adapterId = bounded(params, "adapter_id");
        final Object tiers = params.get("supported_tiers");
        if (!(tiers instanceof List)) {
            throw Params.invalidParams("supported_tiers", "must be an array of integers");
        }
        if (((List<?>) tiers).size() > CapabilityManifest.MAX_TIER + 1) {
            throw Params.invalidParams("supported_tiers", "names at most " + (CapabilityManifest.MAX_TIER + 1) + " tiers");
        }
        for (final Object t : (List<?>) tiers) {
            if (!(t instanceof Long) || (Long) t < 0 || (Long) t > CapabilityManifest.MAX_TIER) {
                throw Params.invalidParams("supported_tiers", "must hold integers 0.." + CapabilityManifest.MAX_TIER);
            }
        }
        final Map<String, Object> adapter = JsonTree.object("adapter_id", adapterId, "surface_type", surfaceType,
            "supported_tiers", tiers, "built_in", false);
        // A built-in adapter or one bound before keeps its binding: bound=false, not a takeover.
        if (adapters.containsKey(adapterId)) {
            return JsonTree.object("bound", false, "adapter_id", adapterId);
        }
        int mine = 0;
        for (final PcpPeer owner : owners.values()) {
            mine += owner == caller ? 1 : 0;
        }
        if (mine >= MAX_PER_CONNECTION || owners.size() >= MAX_BOUND) {
            throw new PcpError(PcpError.RATE_LIMITED, "Rate limited: too many adapters bound", JsonTree.object(
                "max_adapters_per_connection", (long) MAX_PER_CONNECTION, "max_adapters", (long) MAX_BOUND));
        }
        adapters.put(adapterId, adapter);
        owners.put(adapterId, caller);
        return JsonTree.object("bound", true, "adapter_id", adapterId);
    }

    private static String bounded(final Map<String, Object> params, final String name) throws PcpError {
        final String value = Params.requiredString(params, name);
        if (value.length() > MAX_ID_CHARS) {
            throw Params.invalidParams(name, "longer than " + MAX_ID_CHARS + " characters");
        }
        return value;
    }

    /** {@code peer}'s connection ended: the adapters it bound go with it. */
    synchronized void ended(final PcpPeer peer) {
        owners.entrySet().removeIf(e -> {
            if (e.getValue() != peer) {
                return false;
            }
            adapters.remove(e.getKey());
            return true;
        });
    }

    /** health.check's adapters: a built-in one is {@code down} without a desktop scene. */
    synchronized List<Object> statuses(final boolean sceneAttached) {
        final List<Object> list = new ArrayList<>();
        for (final Map<String, Object> a : adapters.values()) {
            final boolean builtIn = Boolean.TRUE.equals(a.get("built_in"));
            list.add(JsonTree.object("adapter_id", a.get("adapter_id"), "surface_type", a.get("surface_type"),
                "status", !builtIn || sceneAttached ? "ok" : "down"));
        }
        return list;
    }
}
