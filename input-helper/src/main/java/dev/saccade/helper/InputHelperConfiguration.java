package dev.saccade.helper;

/**
 * The input helper's system properties and their defaults; docs/settings.md lists them. The
 * backends' own are in their packages ({@code XTestConfiguration}, {@code WaylandInputConfiguration}).
 */
public final class InputHelperConfiguration {
    /**
     * An idle helper's long park: its heartbeat period then (the owner takes a helper silent for
     * 2 s as gone, and kills one silent for 3 s as hung).
     */
    public static final String IDLE_PARK_MS_PROP_NAME = "saccade.helper.idle.park.ms";
    public static final long IDLE_PARK_MS_DEFAULT = 1_000;

    /** Input held by HOLD is released when no plan renewed its lease for this long. */
    public static final String LEASE_MAX_MS_PROP_NAME = "saccade.helper.lease.max.ms";
    /** 60 s: the last resort against an agent that holds and forgets while staying connected. */
    public static final long LEASE_MAX_MS_DEFAULT = 60_000;

    /** Input the helper holds is released once the owner has been silent (no heartbeat, no plan) this long. */
    public static final String OWNER_SILENCE_MS_PROP_NAME = "saccade.helper.owner.silence.ms";
    public static final long OWNER_SILENCE_MS_DEFAULT = 1_000;

    private InputHelperConfiguration() {
    }

    public static long idleParkMs() {
        return Long.getLong(IDLE_PARK_MS_PROP_NAME, IDLE_PARK_MS_DEFAULT);
    }

    public static long leaseMaxMs() {
        return Long.getLong(LEASE_MAX_MS_PROP_NAME, LEASE_MAX_MS_DEFAULT);
    }

    public static long ownerSilenceMs() {
        return Long.getLong(OWNER_SILENCE_MS_PROP_NAME, OWNER_SILENCE_MS_DEFAULT);
    }
}
