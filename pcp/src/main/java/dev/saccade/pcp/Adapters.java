package dev.saccade.pcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The surface adapters PCP knows (pcp §3.2, "register.adapter"): the built-in {@code x11} and
 * {@code atspi2}, and those bound by register.adapter. A binding is never taken over, so a
 * caller cannot replace a built-in adapter; health.check reports each one's status (pcp §3.12).
 */
final class Adapters {
    /** Written by connection threads at once (register.adapter); {@code putIfAbsent} decides a race. */
    private final Map<String, Map<String, Object>> adapters = new ConcurrentHashMap<>();

    Adapters() {
        builtIn("x11", "x11");
        builtIn("atspi2", "atspi2");
    }

    private void builtIn(final String id, final String surfaceType) {
        adapters.put(id, JsonTree.object("adapter_id", id, "surface_type", surfaceType,
            "supported_tiers", List.of(0L, 1L, 2L, 3L), "built_in", true));
    }

    /** register.adapter: binds the adapter unless its id is bound already. */
    Object register(final Map<String, Object> params) throws PcpError {
        final String surfaceType = Params.requiredString(params, "surface_type");
        final String adapterId = Params.requiredString(params, "adapter_id");
        final Object tiers = params.get("supported_tiers");
        if (!(tiers instanceof List)) {
            throw Params.invalidParams("supported_tiers", "must be an array of integers");
        }
        for (final Object t : (List<?>) tiers) {
            if (!(t instanceof Long) || (Long) t < 0 || (Long) t > CapabilityManifest.MAX_TIER) {
                throw Params.invalidParams("supported_tiers", "must hold integers 0.." + CapabilityManifest.MAX_TIER);
            }
        }
        final Map<String, Object> adapter = JsonTree.object("adapter_id", adapterId, "surface_type", surfaceType,
            "supported_tiers", tiers, "built_in", false);
        // A built-in adapter or one bound before keeps its binding: bound=false, not a takeover.
        final boolean bound = adapters.putIfAbsent(adapterId, adapter) == null;
        return JsonTree.object("bound", bound, "adapter_id", adapterId);
    }

    /** health.check's adapters: a built-in one is {@code down} without a desktop scene. */
    List<Object> statuses(final boolean sceneAttached) {
        final List<Object> list = new ArrayList<>();
        for (final Map<String, Object> a : adapters.values()) {
            final boolean builtIn = Boolean.TRUE.equals(a.get("built_in"));
            list.add(JsonTree.object("adapter_id", a.get("adapter_id"), "surface_type", a.get("surface_type"),
                "status", !builtIn || sceneAttached ? "ok" : "down"));
        }
        return list;
    }
}
