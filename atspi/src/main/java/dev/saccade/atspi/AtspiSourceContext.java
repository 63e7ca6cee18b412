package dev.saccade.atspi;

import static dev.saccade.atspi.AtspiConfiguration.APP_TIMEOUT_MS_PROP_NAME;
import static dev.saccade.atspi.AtspiConfiguration.COALESCE_MAX_MS_PROP_NAME;
import static dev.saccade.atspi.AtspiConfiguration.COALESCE_QUIET_MS_PROP_NAME;
import static dev.saccade.atspi.AtspiConfiguration.GUARDED_TIMEOUT_MS_PROP_NAME;
import static dev.saccade.atspi.AtspiConfiguration.MAX_NODES_PER_APP_PROP_NAME;
import static dev.saccade.atspi.AtspiConfiguration.REFRESH_TIMEOUT_MS_PROP_NAME;

import java.util.Map;

/**
 * Settings of one {@link AtspiSource}. Each starts from its {@link AtspiConfiguration} property or
 * default; setters override; {@link #conclude()} fills the bus address from the environment and checks everything once.
 */
public final class AtspiSourceContext {
    private String sessionBusAddress;
    private String accessibilityBusAddress;
    private int maxNodesPerApp = AtspiConfiguration.maxNodesPerApp();
    private long appTimeoutMs = AtspiConfiguration.appTimeoutMs();
    private long refreshTimeoutMs = AtspiConfiguration.refreshTimeoutMs();
    private long guardedTimeoutMs = AtspiConfiguration.guardedTimeoutMs();
    private long coalesceQuietMs = AtspiConfiguration.coalesceQuietMs();
    private long coalesceMaxMs = AtspiConfiguration.coalesceMaxMs();
    private int maxTextChars = AtspiConfiguration.maxTextChars();
    private long periodicRefreshMs = AtspiConfiguration.periodicRefreshMs();
    private long fullRefreshMs = AtspiConfiguration.fullRefreshMs();
    private long inputSettleMs = AtspiConfiguration.inputSettleMs();
    private long reconnectIntervalMs = AtspiConfiguration.reconnectIntervalMs();
    private long connectTimeoutMs = AtspiConfiguration.connectTimeoutMs();
    private boolean peerToPeer = AtspiConfiguration.peerToPeer();
    private boolean collapse = AtspiConfiguration.collapse();
    private boolean enableAccessibility = AtspiConfiguration.enableAccessibility();
    private boolean subtreeReads = AtspiConfiguration.subtreeReads();
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

    /** How long one read of a guarded application may take, across passes (D67). */
    public AtspiSourceContext guardedTimeoutMs(final long ms) {
        guardedTimeoutMs = ms;
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

    /** Whether connecting sets {@code org.a11y.Status.IsEnabled} on the session bus (D50). */
    public AtspiSourceContext enableAccessibility(final boolean on) {
        enableAccessibility = on;
        return this;
    }

    /** Whether children changed under a known object re-read only its subtree (D61), not the application. */
    public AtspiSourceContext subtreeReads(final boolean on) {
        subtreeReads = on;
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
            throw new IllegalArgumentException(MAX_NODES_PER_APP_PROP_NAME + "=" + maxNodesPerApp + ": must be at least 1");
        }
        if (appTimeoutMs < 1 || refreshTimeoutMs < appTimeoutMs) {
            throw new IllegalArgumentException(APP_TIMEOUT_MS_PROP_NAME + "=" + appTimeoutMs + ", " + REFRESH_TIMEOUT_MS_PROP_NAME
                + "=" + refreshTimeoutMs + ": need 1 <= app timeout <= refresh timeout");
        }
        if (guardedTimeoutMs < refreshTimeoutMs) {
            throw new IllegalArgumentException(GUARDED_TIMEOUT_MS_PROP_NAME + "=" + guardedTimeoutMs + ": must be at least "
                + REFRESH_TIMEOUT_MS_PROP_NAME + " (" + refreshTimeoutMs + ")");
        }
        if (coalesceQuietMs < 0 || coalesceMaxMs < coalesceQuietMs) {
            throw new IllegalArgumentException(COALESCE_QUIET_MS_PROP_NAME + "=" + coalesceQuietMs + ", " + COALESCE_MAX_MS_PROP_NAME
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

    public long guardedTimeoutMs() {
        return guardedTimeoutMs;
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

    /** See {@link #AtspiConfiguration.FULL_REFRESH_MS_DEFAULT}. */
    public long fullRefreshMs() {
        return fullRefreshMs;
    }

    /** See {@link #AtspiConfiguration.INPUT_SETTLE_MS_DEFAULT}. */
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

    public boolean enableAccessibility() {
        return enableAccessibility;
    }

    public boolean collapse() {
        return collapse;
    }

    public boolean subtreeReads() {
        return subtreeReads;
    }
}
