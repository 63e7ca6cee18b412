package dev.saccade.owner;

import java.nio.file.Path;

/**
 * The owner core's system properties and their defaults: {@link OwnerContext} and
 * {@link OwnerIdleStrategy} start from these getters. docs/settings.md lists them.
 */
public final class OwnerConfiguration {
    /** The agent endpoint's socket; unset: {@code $XDG_RUNTIME_DIR/saccade/saccade-agent-v1.sock}. */
    public static final String ENDPOINT_PROP_NAME = "saccade.owner.endpoint";

    /** Agent connections served at once. */
    public static final String MAX_CLIENTS_PROP_NAME = "saccade.owner.max.clients";
    /**
     * Spec §1.1: several clients at once, 32 by default (at least 32 agents on one desktop);
     * each slot costs 2 MiB of buffers, allocated when a connection first uses it.
     */
    public static final int MAX_CLIENTS_DEFAULT = 32;

    /** The X display to own; unset: DISPLAY. */
    public static final String DISPLAY_PROP_NAME = "saccade.owner.display";

    /** How long a starting owner waits for a live endpoint to go away before giving up. */
    public static final String BUSY_WAIT_MS_PROP_NAME = "saccade.owner.busy.wait.ms";
    public static final long BUSY_WAIT_MS_DEFAULT = 5_000;

    /** Targets one scene holds at most (1..10000). */
    public static final String MAX_TARGETS_PROP_NAME = "saccade.owner.scene.max.targets";
    public static final int MAX_TARGETS_DEFAULT = 10_000;

    /** Bytes of the scene's text lane. */
    public static final String MAX_TEXT_BYTES_PROP_NAME = "saccade.owner.scene.max.text.bytes";
    /** 1 MiB; an observe's own lane is capped by its capacity anyway. */
    public static final int MAX_TEXT_BYTES_DEFAULT = 1 << 20;

    /** The D-Bus session bus whose org.a11y.Bus names the accessibility bus; unset: DBUS_SESSION_BUS_ADDRESS. */
    public static final String SESSION_BUS_PROP_NAME = "saccade.owner.session.bus";

    /** Read AT-SPI2 semantic targets; false only for tests or machines without an accessibility bus. */
    public static final String ACCESSIBILITY_PROP_NAME = "saccade.owner.accessibility";
    public static final boolean ACCESSIBILITY_DEFAULT = true;

    /** Start the input helper process; false: every batch answers EXECUTOR_LOST (D5). */
    public static final String INPUT_HELPER_PROP_NAME = "saccade.owner.input.helper";
    public static final boolean INPUT_HELPER_DEFAULT = true;

    /** A connection that has not completed Hello within this is closed (spec §1.3). */
    public static final String HELLO_TIMEOUT_MS_PROP_NAME = "saccade.owner.hello.timeout.ms";
    public static final long HELLO_TIMEOUT_MS_DEFAULT = 2_000;

    /** How long a handing-off owner waits for the requests in hand. */
    public static final String DRAIN_TIMEOUT_MS_PROP_NAME = "saccade.owner.drain.timeout.ms";
    /**
     * An observe answers in microseconds and a batch within its own deadline, so two seconds
     * covers all but a client that stays connected idle, which then gets a closed connection and
     * reconnects.
     */
    public static final long DRAIN_TIMEOUT_MS_DEFAULT = 2_000;

    /** The owner thread busy-polls this long after work. */
    public static final String IDLE_SPIN_NS_PROP_NAME = "saccade.owner.idle.spin.ns";
    /**
     * 20 µs: covers a client's turnaround between requests (measured 5–15 µs here) without
     * holding the core long when the client was scheduled onto it (with 100 µs that cost the
     * active-window observe a p99 of ~110 µs; with 15 µs, 25–37 µs).
     */
    public static final long IDLE_SPIN_NS_DEFAULT = 20_000;

    /** After spinning, the owner thread yields for this long before it parks. */
    public static final String IDLE_YIELD_NS_PROP_NAME = "saccade.owner.idle.yield.ns";
    public static final long IDLE_YIELD_NS_DEFAULT = 400_000;

    /** The longest park of an owner with clients: how long a new request waits for an idle owner. */
    public static final String IDLE_MAX_PARK_NS_PROP_NAME = "saccade.owner.idle.max.park.ns";
    public static final long IDLE_MAX_PARK_NS_DEFAULT = 1_000_000;

    /** The park of an owner with no client, which is also its heartbeat period to the input helper. */
    public static final String IDLE_QUIESCENT_PARK_NS_PROP_NAME = "saccade.owner.idle.quiescent.park.ns";
    /**
     * 1 s. The heartbeat slowing to this is safe: the helper looks at it only while it holds
     * input, and input is held only for a connected client (a disconnect releases it), during
     * which the owner polls.
     */
    public static final long IDLE_QUIESCENT_PARK_NS_DEFAULT = 1_000_000_000;

    /** The longest sleep of an owner whose clients all wait for their next request; 0: look every park cap. */
    public static final String IDLE_CALM_PARK_NS_PROP_NAME = "saccade.owner.idle.calm.park.ns";
    /**
     * 100 ms. A calm owner is woken by its clients' sockets and by every hand-off (D69), so this
     * only bounds what a wake-up that never came would cost, at ten looks a second.
     */
    public static final long IDLE_CALM_PARK_NS_DEFAULT = 100_000_000;

    private OwnerConfiguration() {
    }

    /** The endpoint's path, or null for the runtime directory's default. */
    public static Path endpoint() {
        final String value = System.getProperty(ENDPOINT_PROP_NAME);
        return value == null || value.isEmpty() ? null : Path.of(value);
    }

    public static int maxClients() {
        return Integer.getInteger(MAX_CLIENTS_PROP_NAME, MAX_CLIENTS_DEFAULT);
    }

    public static long idleCalmParkNs() {
        return Long.getLong(IDLE_CALM_PARK_NS_PROP_NAME, IDLE_CALM_PARK_NS_DEFAULT);
    }

    public static String display() {
        return System.getProperty(DISPLAY_PROP_NAME, System.getenv("DISPLAY"));
    }

    public static long busyWaitMs() {
        return Long.getLong(BUSY_WAIT_MS_PROP_NAME, BUSY_WAIT_MS_DEFAULT);
    }

    public static int maxTargets() {
        return Integer.getInteger(MAX_TARGETS_PROP_NAME, MAX_TARGETS_DEFAULT);
    }

    public static int maxTextBytes() {
        return Integer.getInteger(MAX_TEXT_BYTES_PROP_NAME, MAX_TEXT_BYTES_DEFAULT);
    }

    public static String sessionBus() {
        return System.getProperty(SESSION_BUS_PROP_NAME, System.getenv("DBUS_SESSION_BUS_ADDRESS"));
    }

    /** On unless the property is exactly {@code false}. */
    public static boolean accessibility() {
        return !"false".equals(System.getProperty(ACCESSIBILITY_PROP_NAME));
    }

    /** On unless the property is exactly {@code false}. */
    public static boolean inputHelper() {
        return !"false".equals(System.getProperty(INPUT_HELPER_PROP_NAME));
    }

    public static long helloTimeoutMs() {
        return Long.getLong(HELLO_TIMEOUT_MS_PROP_NAME, HELLO_TIMEOUT_MS_DEFAULT);
    }

    public static long drainTimeoutMs() {
        return Long.getLong(DRAIN_TIMEOUT_MS_PROP_NAME, DRAIN_TIMEOUT_MS_DEFAULT);
    }

    public static long idleSpinNs() {
        return Long.getLong(IDLE_SPIN_NS_PROP_NAME, IDLE_SPIN_NS_DEFAULT);
    }

    public static long idleYieldNs() {
        return Long.getLong(IDLE_YIELD_NS_PROP_NAME, IDLE_YIELD_NS_DEFAULT);
    }

    public static long idleMaxParkNs() {
        return Long.getLong(IDLE_MAX_PARK_NS_PROP_NAME, IDLE_MAX_PARK_NS_DEFAULT);
    }

    public static long idleQuiescentParkNs() {
        return Long.getLong(IDLE_QUIESCENT_PARK_NS_PROP_NAME, IDLE_QUIESCENT_PARK_NS_DEFAULT);
    }
}
