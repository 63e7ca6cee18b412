package dev.saccade.pcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who listens to which events (pcp §7, "Events and subscriptions"; pcp §3.9, §3.10): subscribe and
 * unsubscribe, the fan-out of one event to every matching subscription, and the end of
 * subscriptions with their connection or a revoked application. The event source asks
 * {@link #any()} so that it diffs generations only while someone listens.
 */
final class Subscriptions {
    static final Set<String> EVENT_TYPES = Set.of("surface.focus_changed", "surface.created",
        "surface.destroyed", "element.state_changed", "generation.published");
    /** Subscriptions one connection may hold at once (pcp §9). */
    static final int MAX_PER_CONNECTION = 64;
    /** The longest {@code surface_id} or {@code app_id} filter: no id PCP gives out is longer. */
    static final int MAX_FILTER_CHARS = 256;

    private final RandomIds ids;
    /**
     * Written by connection threads at once (subscribe, unsubscribe, revoke.app, a connection's
     * end); {@code remove(id, s)} lets only one of them end a subscription.
     */
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    /** Written once by whoever attaches the event source; read by subscribing connection threads. */
    private volatile Runnable hook;

    Subscriptions(final RandomIds ids) {
        this.ids = ids;
    }

    /** subscribe.events: runs the hook (the event source's baseline) before it answers. */
    Object subscribe(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final Object types = params.get("event_types");
        if (!(types instanceof List) || ((List<?>) types).isEmpty()) {
            throw Params.invalidParams("event_types", "must be a non-empty array of event types");
        }
        final List<Object> active = new ArrayList<>();
        for (final Object t : (List<?>) types) {
            if (!EVENT_TYPES.contains(t)) {
                throw Params.invalidParams("event_types", "unknown event type " + t + "; known: " + EVENT_TYPES);
            }
            if (!active.contains(t)) {
                active.add(t);
            }
        }
        final String surfaceId = bounded(params, "surface_id");
        final String appId = bounded(params, "app_id");
        if (held(caller) >= MAX_PER_CONNECTION) {
            throw new PcpError(PcpError.RATE_LIMITED, "Rate limited: " + MAX_PER_CONNECTION
                + " subscriptions on this connection", JsonTree.object("max_subscriptions", (long) MAX_PER_CONNECTION,
                "reason", "unsubscribe first"));
        }
        final Subscription s = new Subscription("sub-" + ids.hex(8), caller, Set.copyOf(active), surfaceId, appId);
        subscriptions.put(s.id, s);
        final Runnable h = hook;
        if (h != null) {
            h.run();
        }
        return JsonTree.object("subscription_id", s.id, "active_events", active);
    }

    private static String bounded(final Map<String, Object> params, final String name) throws PcpError {
        final String value = Params.optionalString(params, name);
        if (value != null && value.length() > MAX_FILTER_CHARS) {
            throw Params.invalidParams(name, "longer than " + MAX_FILTER_CHARS + " characters");
        }
        return value;
    }

    private int held(final PcpPeer caller) {
        int n = 0;
        for (final Subscription s : subscriptions.values()) {
            n += s.peer == caller ? 1 : 0;
        }
        return n;
    }

    /** unsubscribe.events: only the subscriber may cancel. */
    Object unsubscribe(final PcpPeer caller, final Map<String, Object> params) throws PcpError {
        final String id = Params.requiredString(params, "subscription_id");
        final Subscription s = subscriptions.get(id);
        // Only the subscriber may cancel: another connection gets the same answer as for no such id.
        final boolean cancelled = s != null && s.peer == caller && subscriptions.remove(id, s);
        return JsonTree.object("cancelled", cancelled);
    }

    /** Fan-out: see {@link PcpCoreService#publish}. */
    int publish(final String type, final String surfaceId, final String appId, final Map<String, Object> payload) {
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

    void hook(final Runnable subscribed) {
        hook = subscribed;
    }

    boolean any() {
        return !subscriptions.isEmpty();
    }

    /** Ends the subscriptions of the revoked application {@code appId} and of its connection; returns how many. */
    long terminate(final String appId, final PcpPeer appPeer) {
        long terminated = 0;
        for (final Subscription s : subscriptions.values()) {
            if ((appId.equals(s.appId) || s.peer == appPeer) && subscriptions.remove(s.id, s)) {
                terminated++;
            }
        }
        return terminated;
    }

    /** {@code peer}'s connection ended: so do its subscriptions. */
    void ended(final PcpPeer peer) {
        for (final Subscription s : subscriptions.values()) {
            if (s.peer == peer) {
                subscriptions.remove(s.id, s);
            }
        }
    }

    /** One subscriber's event types and filters. Immutable. */
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
