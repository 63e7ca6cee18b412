package dev.saccade.atspi;

/**
 * The AT-SPI2 source's system properties and their defaults; {@link AtspiSourceContext} starts
 * from these getters. docs/settings.md lists them.
 */
public final class AtspiConfiguration {
    /** Nodes one application contributes per refresh. */
    public static final String MAX_NODES_PER_APP_PROP_NAME = "saccade.owner.atspi.max.nodes.per.app";
    /**
     * 5,000: a GTK window rarely has more than a few hundred; a tree view with thousands of rows
     * is cut here (and flagged incomplete) rather than costing the whole refresh.
     */
    public static final int MAX_NODES_PER_APP_DEFAULT = 5_000;

    /** How long one application's refresh may take before its last nodes stay. */
    public static final String APP_TIMEOUT_MS_PROP_NAME = "saccade.owner.atspi.app.timeout.ms";
    /**
     * 500 ms: a healthy gtk3-demo needs about 10 ms; an application that has not answered by then
     * is hung or swapping.
     */
    public static final long APP_TIMEOUT_MS_DEFAULT = 500;

    /** Ceiling on a whole refresh pass (discovery plus all applications in parallel). */
    public static final String REFRESH_TIMEOUT_MS_PROP_NAME = "saccade.owner.atspi.refresh.timeout.ms";
    public static final long REFRESH_TIMEOUT_MS_DEFAULT = 1_000;

    /**
     * How long one read of a guarded application (LibreOffice, Java: D47) may take; past the pass's
     * ceiling it goes on beside the next passes (D67); a first read has it from its probe on (D73).
     */
    public static final String GUARDED_TIMEOUT_MS_PROP_NAME = "saccade.owner.atspi.guarded.timeout.ms";
    /** 8 s: a Calc window's guarded walk takes about 1 s idle, and under load did not end within 1 s. */
    public static final long GUARDED_TIMEOUT_MS_DEFAULT = 8_000;

    /** Refresh after this long without an AT-SPI event. */
    public static final String COALESCE_QUIET_MS_PROP_NAME = "saccade.owner.atspi.coalesce.quiet.ms";
    /** Events come in bursts (a dialog opening emits dozens): 20 ms of quiet ends one ... */
    public static final long COALESCE_QUIET_MS_DEFAULT = 20;

    /** Refresh at the latest this long after the first event of a burst. */
    public static final String COALESCE_MAX_MS_PROP_NAME = "saccade.owner.atspi.coalesce.max.ms";
    /** ... or 100 ms after the first, so a continuous stream (an animation) still refreshes. */
    public static final long COALESCE_MAX_MS_DEFAULT = 100;

    /** Text content read per text object. */
    public static final String MAX_TEXT_CHARS_PROP_NAME = "saccade.owner.atspi.max.text.chars";
    /** 1,000 characters (a source view holds 16,000). */
    public static final int MAX_TEXT_CHARS_DEFAULT = 1_000;

    /** A full refresh at this interval even without events; 0: events only. */
    public static final String PERIODIC_REFRESH_MS_PROP_NAME = "saccade.owner.atspi.periodic.refresh.ms";
    public static final long PERIODIC_REFRESH_MS_DEFAULT = 0;

    /** Age after which an application no event marked is re-read whole (D19); 0: always whole. */
    public static final String FULL_REFRESH_MS_PROP_NAME = "saccade.owner.atspi.full.refresh.ms";
    /**
     * An application no event marked is re-read whole on a refresh request once its last full read
     * is this old, and events about one object's facts re-read only that object within it (D19):
     * 2,000 ms, the longest a change no event announced leaves its scene behind while windows
     * change (after input, the settle pass bounds it at {@link #INPUT_SETTLE_MS_DEFAULT}); 0: every
     * request re-reads whole.
     */
    public static final long FULL_REFRESH_MS_DEFAULT = 2_000;

    /** After input, every application is read whole once more this long after the last of it (D19); 0: never. */
    public static final String INPUT_SETTLE_MS_PROP_NAME = "saccade.owner.atspi.input.settle.ms";
    /** 1,000 ms, so the view is never behind what the input did, with or without events (D19). */
    public static final long INPUT_SETTLE_MS_DEFAULT = 1_000;

    /** Between attempts to reach a lost accessibility bus. */
    public static final String RECONNECT_INTERVAL_MS_PROP_NAME = "saccade.owner.atspi.reconnect.interval.ms";
    public static final long RECONNECT_INTERVAL_MS_DEFAULT = 1_000;

    /** How long connecting to the accessibility bus may take. */
    public static final String CONNECT_TIMEOUT_MS_PROP_NAME = "saccade.owner.atspi.connect.timeout.ms";
    /** Connecting includes starting at-spi-bus-launcher by D-Bus activation: allow 5 s. */
    public static final long CONNECT_TIMEOUT_MS_DEFAULT = 5_000;

    /** Refresh at-spi2-atk applications over their own D-Bus server, not the bus daemon (half the cost a call). */
    public static final String PEER_TO_PEER_PROP_NAME = "saccade.owner.atspi.peer.to.peer";
    public static final boolean PEER_TO_PEER_DEFAULT = true;

    /** Leave out what an agent cannot see or use: objects off screen, bare layout containers (§5.13). */
    public static final String COLLAPSE_PROP_NAME = "saccade.owner.atspi.collapse";
    public static final boolean COLLAPSE_DEFAULT = true;

    /**
     * Sets {@code org.a11y.Status.IsEnabled} on the session bus when connecting, as a desktop does
     * when accessibility is turned on (D50): Chromium, Electron and Firefox then build their
     * accessible trees without flags.
     */
    public static final String ENABLE_ACCESSIBILITY_PROP_NAME = "saccade.owner.atspi.enable.accessibility";
    public static final boolean ENABLE_ACCESSIBILITY_DEFAULT = true;

    /**
     * Children changed under an object of an application's last whole read re-read only that
     * object's subtree and merge it into the tree (D61); false: the application is read whole.
     */
    public static final String SUBTREE_READS_PROP_NAME = "saccade.owner.atspi.subtree.reads";
    public static final boolean SUBTREE_READS_DEFAULT = false;

    private AtspiConfiguration() {
    }

    public static int maxNodesPerApp() {
        return Integer.getInteger(MAX_NODES_PER_APP_PROP_NAME, MAX_NODES_PER_APP_DEFAULT);
    }

    public static long appTimeoutMs() {
        return Long.getLong(APP_TIMEOUT_MS_PROP_NAME, APP_TIMEOUT_MS_DEFAULT);
    }

    public static long refreshTimeoutMs() {
        return Long.getLong(REFRESH_TIMEOUT_MS_PROP_NAME, REFRESH_TIMEOUT_MS_DEFAULT);
    }

    public static long guardedTimeoutMs() {
        return Long.getLong(GUARDED_TIMEOUT_MS_PROP_NAME, GUARDED_TIMEOUT_MS_DEFAULT);
    }

    public static long coalesceQuietMs() {
        return Long.getLong(COALESCE_QUIET_MS_PROP_NAME, COALESCE_QUIET_MS_DEFAULT);
    }

    public static long coalesceMaxMs() {
        return Long.getLong(COALESCE_MAX_MS_PROP_NAME, COALESCE_MAX_MS_DEFAULT);
    }

    public static int maxTextChars() {
        return Integer.getInteger(MAX_TEXT_CHARS_PROP_NAME, MAX_TEXT_CHARS_DEFAULT);
    }

    public static long periodicRefreshMs() {
        return Long.getLong(PERIODIC_REFRESH_MS_PROP_NAME, PERIODIC_REFRESH_MS_DEFAULT);
    }

    public static long fullRefreshMs() {
        return Long.getLong(FULL_REFRESH_MS_PROP_NAME, FULL_REFRESH_MS_DEFAULT);
    }

    public static long inputSettleMs() {
        return Long.getLong(INPUT_SETTLE_MS_PROP_NAME, INPUT_SETTLE_MS_DEFAULT);
    }

    public static long reconnectIntervalMs() {
        return Long.getLong(RECONNECT_INTERVAL_MS_PROP_NAME, RECONNECT_INTERVAL_MS_DEFAULT);
    }

    public static long connectTimeoutMs() {
        return Long.getLong(CONNECT_TIMEOUT_MS_PROP_NAME, CONNECT_TIMEOUT_MS_DEFAULT);
    }

    public static boolean peerToPeer() {
        return Boolean.parseBoolean(System.getProperty(PEER_TO_PEER_PROP_NAME, Boolean.toString(PEER_TO_PEER_DEFAULT)));
    }

    public static boolean collapse() {
        return Boolean.parseBoolean(System.getProperty(COLLAPSE_PROP_NAME, Boolean.toString(COLLAPSE_DEFAULT)));
    }

    public static boolean enableAccessibility() {
        return Boolean.parseBoolean(System.getProperty(ENABLE_ACCESSIBILITY_PROP_NAME,
            Boolean.toString(ENABLE_ACCESSIBILITY_DEFAULT)));
    }

    public static boolean subtreeReads() {
        return Boolean.parseBoolean(System.getProperty(SUBTREE_READS_PROP_NAME, Boolean.toString(SUBTREE_READS_DEFAULT)));
    }
}
