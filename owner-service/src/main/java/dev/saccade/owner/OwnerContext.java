package dev.saccade.owner;

import static dev.saccade.owner.OwnerConfiguration.BUSY_WAIT_MS_PROP_NAME;
import static dev.saccade.owner.OwnerConfiguration.DISPLAY_PROP_NAME;
import static dev.saccade.owner.OwnerConfiguration.MAX_CLIENTS_PROP_NAME;

import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.owner.source.GridLayout;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Settings of one owner service. Each starts from its {@link OwnerConfiguration} property or
 * default; the CLI overrides
 * them through the setters; {@link #conclude()} fills what depends on the environment and
 * checks everything once.
 */
public final class OwnerContext {
    /** Packets in the scene pool: one read, one pending, one being built, one spare. */
    public static final int SCENE_PACKETS = 4;
    public static final String GENERATION_FILE_NAME = "saccade-owner.generation";
    private Path runtimeDirectory;
    private Path endpoint = OwnerConfiguration.endpoint();
    private int maxClients = OwnerConfiguration.maxClients();
    private String display = OwnerConfiguration.display();
    private long busyWaitMs = OwnerConfiguration.busyWaitMs();
    private int maxTargets = OwnerConfiguration.maxTargets();
    private int maxTextBytes = OwnerConfiguration.maxTextBytes();
    private GridLayout grid;
    private String sessionBusAddress = OwnerConfiguration.sessionBus();
    /** AT-SPI2 semantic targets; off only for tests or machines without an accessibility bus. */
    private boolean accessibility = OwnerConfiguration.accessibility();
    /** The input helper process; without it every batch answers EXECUTOR_LOST (D5). */
    private boolean inputHelper = OwnerConfiguration.inputHelper();
    /** The supervisor's link to take the listener from (ListenerHandoff), or null to bind ourselves. */
    private Path supervisorLink;
    private String supervisorNonce;
    /**
     * Run on the link thread once a planned handoff has drained this owner, or its supervisor's
     * link ended, so the process can exit.
     */
    private Runnable onHandedOff = () -> { };
    private long drainTimeoutMs = OwnerConfiguration.drainTimeoutMs();
    /**
     * The supervisor's session nonce when the input helper is the supervisor's (it outlives this
     * owner and attaches to it); null when this owner launches its own helper.
     */
    private byte[] externalHelperNonce;
    private boolean concluded;

    public OwnerContext runtimeDirectory(final Path dir) {
        runtimeDirectory = dir;
        return this;
    }

    public OwnerContext endpoint(final Path path) {
        endpoint = path;
        return this;
    }

    public OwnerContext maxClients(final int n) {
        maxClients = n;
        return this;
    }

    public OwnerContext display(final String x11Display) {
        display = x11Display;
        return this;
    }

    public OwnerContext busyWaitMs(final long ms) {
        busyWaitMs = ms;
        return this;
    }

    /** The D-Bus session bus whose org.a11y.Bus names the accessibility bus. */
    public OwnerContext sessionBusAddress(final String address) {
        sessionBusAddress = address;
        return this;
    }

    public OwnerContext accessibility(final boolean on) {
        accessibility = on;
        return this;
    }

    public OwnerContext inputHelper(final boolean on) {
        inputHelper = on;
        return this;
    }

    public boolean inputHelper() {
        return inputHelper;
    }

    /**
     * Take the agent endpoint's listener from the supervisor's link at {@code link} instead of
     * binding it, authenticating with {@code nonceHex}; null binds as usual.
     */
    public OwnerContext supervisorLink(final Path link, final String nonceHex) {
        supervisorLink = link;
        supervisorNonce = nonceHex;
        return this;
    }

    public Path supervisorLink() {
        return supervisorLink;
    }

    public String supervisorNonce() {
        return supervisorNonce;
    }

    public OwnerContext onHandedOff(final Runnable action) {
        onHandedOff = action;
        return this;
    }

    public Runnable onHandedOff() {
        return onHandedOff;
    }

    public Duration drainTimeout() {
        return Duration.ofMillis(drainTimeoutMs);
    }

    /**
     * The input helper is started by the supervisor, which gave this owner and the helper the
     * session {@code nonce}: make a link for it and wait for it to attach, instead of launching one.
     */
    public OwnerContext externalInputHelper(final byte[] nonce) {
        inputHelper = true;
        externalHelperNonce = nonce.clone();
        return this;
    }

    /** The supervisor's nonce of an external input helper, or null when this owner launches its own. */
    public byte[] externalHelperNonce() {
        return externalHelperNonce == null ? null : externalHelperNonce.clone();
    }

    public OwnerContext grid(final GridLayout layout) {
        grid = layout;
        return this;
    }

    /**
     * Fills defaults from the environment and validates; once.
     *
     * @throws IOException when our uid, needed for the default runtime directory, cannot be read.
     */
    public OwnerContext conclude() throws IOException {
        if (concluded) {
            throw new IllegalStateException("OwnerContext concluded twice");
        }
        concluded = true;
        if (runtimeDirectory == null) {
            runtimeDirectory = RuntimeDirectory.resolve(System.getenv());
        }
        if (endpoint == null) {
            endpoint = runtimeDirectory.resolve(RuntimeDirectory.AGENT_SOCKET_NAME);
        }
        if (grid == null) {
            grid = GridLayout.fromSystemProperties();
        }
        if (display == null || display.isEmpty()) {
            throw new IllegalArgumentException(
                "no X display: set DISPLAY (or " + DISPLAY_PROP_NAME + "), or run `saccade up` for a headless demo desktop");
        }
        if (maxClients < 1 || maxClients > 1024) {
            throw new IllegalArgumentException(MAX_CLIENTS_PROP_NAME + "=" + maxClients + ": must be 1..1024");
        }
        if (supervisorLink != null && (supervisorNonce == null || supervisorNonce.isEmpty())) {
            throw new IllegalArgumentException("a supervisor link needs the supervisor's nonce");
        }
        if (busyWaitMs < 0) {
            throw new IllegalArgumentException(BUSY_WAIT_MS_PROP_NAME + "=" + busyWaitMs + ": must not be negative");
        }
        if (maxTargets < 1 || maxTargets > 10_000 || maxTextBytes < 0) {
            throw new IllegalArgumentException("scene capacity " + maxTargets + " targets, " + maxTextBytes
                + " text bytes: targets must be 1..10000");
        }
        return this;
    }

    public Path runtimeDirectory() {
        return runtimeDirectory;
    }

    public Path endpoint() {
        return endpoint;
    }

    public int maxClients() {
        return maxClients;
    }

    public String display() {
        return display;
    }

    public Duration busyWait() {
        return Duration.ofMillis(busyWaitMs);
    }

    public int maxTargets() {
        return maxTargets;
    }

    public int maxTextBytes() {
        return maxTextBytes;
    }

    public GridLayout grid() {
        return grid;
    }

    public String sessionBusAddress() {
        return sessionBusAddress;
    }

    /** Whether to read AT-SPI2 targets: asked for, and a session bus to find them on. */
    public boolean accessibility() {
        return accessibility && sessionBusAddress != null && !sessionBusAddress.isEmpty();
    }

    public Path generationFile() {
        return runtimeDirectory.resolve(GENERATION_FILE_NAME);
    }
}
