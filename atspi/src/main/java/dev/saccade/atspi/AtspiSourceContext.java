package dev.saccade.atspi;

import java.util.Map;

/**
 * Settings of one {@link AtspiSource}. Each has a system property and a default; setters override;
 * {@link #conclude()} fills the bus address from the environment and checks everything once.
 */
public final class AtspiSourceContext {
    public static final String MAX_NODES_PER_APP_PROP = "saccade.owner.atspi.max.nodes.per.app";
    public static final String APP_TIMEOUT_MS_PROP = "saccade.owner.atspi.app.timeout.ms";
    public static final String REFRESH_TIMEOUT_MS_PROP = "saccade.owner.atspi.refresh.timeout.ms";
    public static final String COALESCE_QUIET_MS_PROP = "saccade.owner.atspi.coalesce.quiet.ms";
    public static final String COALESCE_MAX_MS_PROP = "saccade.owner.atspi.coalesce.max.ms";
    public static final String MAX_TEXT_CHARS_PROP = "saccade.owner.atspi.max.text.chars";
    public static final String PERIODIC_REFRESH_MS_PROP = "saccade.owner.atspi.periodic.refresh.ms";
    public static final String FULL_REFRESH_MS_PROP = "saccade.owner.atspi.full.refresh.ms";
    public static final String INPUT_SETTLE_MS_PROP = "saccade.owner.atspi.input.settle.ms";
    public static final String RECONNECT_INTERVAL_MS_PROP = "saccade.owner.atspi.reconnect.interval.ms";
    public static final String CONNECT_TIMEOUT_MS_PROP = "saccade.owner.atspi.connect.timeout.ms";
    public static final String PEER_TO_PEER_PROP = "saccade.owner.atspi.peer.to.peer";
    public static final String COLLAPSE_PROP = "saccade.owner.atspi.collapse";

    /**
     * Nodes one application contributes per refresh: 5,000. A GTK window rarely has more than a
     * few hundred; a tree view with thousands of rows is cut here (and flagged incomplete) rather
     * than costing the whole refresh.
     */
    public static final int MAX_NODES_PER_APP_DEFAULT = 5_000;
    /**
     * How long one application's refresh may take: 500 ms. A healthy gtk3-demo needs about 10 ms;
     * an application that has not answered by then is hung or swapping, and its last nodes stay.
     */
    public static final long APP_TIMEOUT_MS_DEFAULT = 500;
    /** Ceiling on a whole pass (discovery plus all applications in parallel): 1,000 ms. */
    public static final long REFRESH_TIMEOUT_MS_DEFAULT = 1_000;
    /** Events come in bursts (a dialog opening emits dozens): refresh after 20 ms without one ... */
    public static final long COALESCE_QUIET_MS_DEFAULT = 20;
    /** ... or 100 ms after the first, so a continuous stream (an animation) still refreshes. */
    public static final long COALESCE_MAX_MS_DEFAULT = 100;
    /** Text content read per text object: 1,000 characters (a source view holds 16,000). */
    public static final int MAX_TEXT_CHARS_DEFAULT = 1_000;
    /** A full refresh at this interval even without events; 0 (default): events only. */
    public static final long PERIODIC_REFRESH_MS_DEFAULT = 0;
    /**
     * An application no event marked is re-read whole on a refresh request once its last full read
     * is this old, and events about one object's facts re-read only that object within it (D19):
     * 2,000 ms, the longest a change no event announced leaves its scene behind while windows
     * change (after input, the settle pass bounds it at {@link #INPUT_SETTLE_MS_DEFAULT}); 0: every
     * request re-reads whole.
     */
    public static final long FULL_REFRESH_MS_DEFAULT = 2_000;
    /**
     * After input, every application is read whole once more this long after the last of it:
     * 1,000 ms, so the view is never behind what the input did, with or without events (D19);
     * 0: no such pass.
     */
    public static final long INPUT_SETTLE_MS_DEFAULT = 1_000;
    public static final long RECONNECT_INTERVAL_MS_DEFAULT = 1_000;
    /** Connecting includes starting at-spi-bus-launcher by D-Bus activation: allow 5 s. */
    public static final long CONNECT_TIMEOUT_MS_DEFAULT = 5_000;

    private String sessionBusAddress;
    private String accessibilityBusAddress;
    private int maxNodesPerApp = Integer.getInteger(MAX_NODES_PER_APP_PROP, MAX_NODES_PER_APP_DEFAULT);
    private long appTimeoutMs = Long.getLong(APP_TIMEOUT_MS_PROP, APP_TIMEOUT_MS_DEFAULT);
    private long refreshTimeoutMs = Long.getLong(REFRESH_TIMEOUT_MS_PROP, REFRESH_TIMEOUT_MS_DEFAULT);
    private long coalesceQuietMs = Long.getLong(COALESCE_QUIET_MS_PROP, COALESCE_QUIET_MS_DEFAULT);
    private long coalesceMaxMs = Long.getLong(COALESCE_MAX_MS_PROP, COALESCE_MAX_MS_DEFAULT);
    private int maxTextChars = Integer.getInteger(MAX_TEXT_CHARS_PROP, MAX_TEXT_CHARS_DEFAULT);
    private long periodicRefreshMs = Long.getLong(PERIODIC_REFRESH_MS_PROP, PERIODIC_REFRESH_MS_DEFAULT);
    private long fullRefreshMs = Long.getLong(FULL_REFRESH_MS_PROP, FULL_REFRESH_MS_DEFAULT);
    private long inputSettleMs = Long.getLong(INPUT_SETTLE_MS_PROP, INPUT_SETTLE_MS_DEFAULT);
    private long reconnectIntervalMs = Long.getLong(RECONNECT_INTERVAL_MS_PROP, RECONNECT_INTERVAL_MS_DEFAULT);
    private long connectTimeoutMs = Long.getLong(CONNECT_TIMEOUT_MS_PROP, CONNECT_TIMEOUT_MS_DEFAULT);
    private boolean peerToPeer = Boolean.parseBoolean(System.getProperty(PEER_TO_PEER_PROP, "true"));
    private boolean collapse = Boolean.parseBoolean(System.getProperty(COLLAPSE_PROP, "true"));
    private boolean concluded;

    /** The session bus, where {@code org.a11y.Bus.GetAddress} is asked. */
    public AtspiSourceContext sessionBusAddress(final String address) {
        sessionBusAddress = address;
        return this;
    }

    /** Skips the session bus: connect to this accessibility bus directly. */
    public AtspiSourceContext accessibilityBusAddress(final String address) {
        accessibilityBusAddress = address;
        return this;
    }

    /** Takes the session bus address from an environment ({@code DBUS_SESSION_BUS_ADDRESS}). */
    public AtspiSourceContext environment(final Map<String, String> environment) {
        sessionBusAddress = environment.get("DBUS_SESSION_BUS_ADDRESS");
        return this;
    }

    public AtspiSourceContext maxNodesPerApp(final int nodes) {
        maxNodesPerApp = nodes;
        return this;
    }

    public AtspiSourceContext appTimeoutMs(final long ms) {
        appTimeoutMs = ms;
        return this;
    }

    public AtspiSourceContext refreshTimeoutMs(final long ms) {
        refreshTimeoutMs = ms;
        return this;
    }

    public AtspiSourceContext coalesceQuietMs(final long ms) {
        coalesceQuietMs = ms;
        return this;
    }

    public AtspiSourceContext coalesceMaxMs(final long ms) {
        coalesceMaxMs = ms;
        return this;
    }

    public AtspiSourceContext maxTextChars(final int chars) {
        maxTextChars = chars;
        return this;
    }

    public AtspiSourceContext periodicRefreshMs(final long ms) {
        periodicRefreshMs = ms;
        return this;
    }

    public AtspiSourceContext fullRefreshMs(final long ms) {
        fullRefreshMs = ms;
        return this;
    }

    public AtspiSourceContext inputSettleMs(final long ms) {
        inputSettleMs = ms;
        return this;
    }

    public AtspiSourceContext reconnectIntervalMs(final long ms) {
        reconnectIntervalMs = ms;
        return this;
    }

    public AtspiSourceContext connectTimeoutMs(final long ms) {
        connectTimeoutMs = ms;
        return this;
    }

    /**
     * Refresh at-spi2-atk applications over their own D-Bus server instead of through the bus
     * daemon (default on): about half the cost per call. Off: everything goes through the bus.
     */
    public AtspiSourceContext peerToPeer(final boolean on) {
        peerToPeer = on;
        return this;
    }

    /**
     * Leave out of the snapshot what an agent cannot see or use (default on, agent-abi §5.13
     * "Left out"): objects not on screen, and layout containers without
     * a name, text, capability or Selection, whose children move up to the nearest object kept.
     * Off: every object read, as the toolkit reports it.
     */
    public AtspiSourceContext collapse(final boolean on) {
        collapse = on;
        return this;
    }

    /** Fills the session bus address from {@code DBUS_SESSION_BUS_ADDRESS} if unset and validates; once. */
    public AtspiSourceContext conclude() {
        if (concluded) {
            throw new IllegalStateException("AtspiSourceContext concluded twice");
        }
        concluded = true;
        if (isBlank(sessionBusAddress) && isBlank(accessibilityBusAddress)) {
            sessionBusAddress = System.getenv("DBUS_SESSION_BUS_ADDRESS");
        }
        if (isBlank(sessionBusAddress) && isBlank(accessibilityBusAddress)) {
            throw new IllegalArgumentException("no D-Bus session bus: set DBUS_SESSION_BUS_ADDRESS (run the owner inside"
                + " the desktop session, or `saccade up` for a headless demo desktop)");
        }
        if (maxNodesPerApp < 1) {
            throw new IllegalArgumentException(MAX_NODES_PER_APP_PROP + "=" + maxNodesPerApp + ": must be at least 1");
        }
        if (appTimeoutMs < 1 || refreshTimeoutMs < appTimeoutMs) {
            throw new IllegalArgumentException(APP_TIMEOUT_MS_PROP + "=" + appTimeoutMs + ", " + REFRESH_TIMEOUT_MS_PROP
                + "=" + refreshTimeoutMs + ": need 1 <= app timeout <= refresh timeout");
        }
        if (coalesceQuietMs < 0 || coalesceMaxMs < coalesceQuietMs) {
            throw new IllegalArgumentException(COALESCE_QUIET_MS_PROP + "=" + coalesceQuietMs + ", " + COALESCE_MAX_MS_PROP
                + "=" + coalesceMaxMs + ": need 0 <= quiet <= max");
        }
        if (maxTextChars < 0 || periodicRefreshMs < 0 || fullRefreshMs < 0 || inputSettleMs < 0
            || reconnectIntervalMs < 1 || connectTimeoutMs < 1) {
            throw new IllegalArgumentException("max text chars " + maxTextChars + ", periodic refresh " + periodicRefreshMs
                + " ms, full refresh " + fullRefreshMs + " ms, input settle " + inputSettleMs
                + " ms, reconnect interval " + reconnectIntervalMs + " ms, connect timeout " + connectTimeoutMs
                + " ms: none may be negative, the last two at least 1");
        }
        return this;
    }

    boolean isConcluded() {
        return concluded;
    }

    private static boolean isBlank(final String s) {
        return s == null || s.isBlank();
    }

    public String sessionBusAddress() {
        return sessionBusAddress;
    }

    public String accessibilityBusAddress() {
        return accessibilityBusAddress;
    }

    public int maxNodesPerApp() {
        return maxNodesPerApp;
    }

    public long appTimeoutMs() {
        return appTimeoutMs;
    }

    public long refreshTimeoutMs() {
        return refreshTimeoutMs;
    }

    public long coalesceQuietMs() {
        return coalesceQuietMs;
    }

    public long coalesceMaxMs() {
        return coalesceMaxMs;
    }

    public int maxTextChars() {
        return maxTextChars;
    }

    public long periodicRefreshMs() {
        return periodicRefreshMs;
    }

    /** See {@link #FULL_REFRESH_MS_DEFAULT}. */
    public long fullRefreshMs() {
        return fullRefreshMs;
    }

    /** See {@link #INPUT_SETTLE_MS_DEFAULT}. */
    public long inputSettleMs() {
        return inputSettleMs;
    }

    public long reconnectIntervalMs() {
        return reconnectIntervalMs;
    }

    public long connectTimeoutMs() {
        return connectTimeoutMs;
    }

    public boolean peerToPeer() {
        return peerToPeer;
    }

    public boolean collapse() {
        return collapse;
    }
}
