package dev.saccade.pcp;

import dev.saccade.ipc.RuntimeDirectory;
import java.nio.file.Path;

/**
 * Settings of the PCP endpoint, each a {@code saccade.pcp.*} system property with a default;
 * {@link #conclude()} fills the paths from the runtime directory and checks the rest once.
 */
public final class PcpContext {
    public static final String MAX_LINE_BYTES_PROP = "saccade.pcp.max.line.bytes";
    /** A line holds one message; 1 MiB fits any manifest or element tree we would send. */
    public static final int MAX_LINE_BYTES_DEFAULT = 1 << 20;
    public static final String MAX_CONNECTIONS_PROP = "saccade.pcp.max.connections";
    public static final int MAX_CONNECTIONS_DEFAULT = 32;
    public static final String RATE_BURST_PROP = "saccade.pcp.rate.burst";
    /** Burst per connection: generous for a caller, small enough to stop a flood at once. */
    public static final int RATE_BURST_DEFAULT = 100;
    public static final String RATE_PER_SECOND_PROP = "saccade.pcp.rate.per.second";
    public static final int RATE_PER_SECOND_DEFAULT = 50;
    public static final String CONFIRMATION_WINDOW_MS_PROP = "saccade.pcp.confirmation.window.ms";
    /** The seed's example undo window. */
    public static final long CONFIRMATION_WINDOW_MS_DEFAULT = 15_000;
    public static final String INVOCATION_TIMEOUT_MS_PROP = "saccade.pcp.invocation.timeout.ms";
    public static final long INVOCATION_TIMEOUT_MS_DEFAULT = 10_000;
    public static final String AUDIT_MAX_BYTES_PROP = "saccade.pcp.audit.max.bytes";
    public static final String BUSY_WAIT_MS_PROP = "saccade.pcp.busy.wait.ms";
    /** A starting PCP waits this long for a live listener on its socket (the owner it replaces) to go. */
    public static final long BUSY_WAIT_MS_DEFAULT = 100;
    public static final String TCP_PORT_PROP = "saccade.pcp.tcp.port";
    public static final String TCP_TOKEN_FILE_PROP = "saccade.pcp.tcp.token.file";

    private Path runtimeDirectory;
    private Path socket;
    private Path hostSocket;
    private Path auditFile;
    private Path trustDirectory;
    private int maxLineBytes = Integer.getInteger(MAX_LINE_BYTES_PROP, MAX_LINE_BYTES_DEFAULT);
    private int maxConnections = Integer.getInteger(MAX_CONNECTIONS_PROP, MAX_CONNECTIONS_DEFAULT);
    private int rateBurst = Integer.getInteger(RATE_BURST_PROP, RATE_BURST_DEFAULT);
    private int ratePerSecond = Integer.getInteger(RATE_PER_SECOND_PROP, RATE_PER_SECOND_DEFAULT);
    private long confirmationWindowMs = Long.getLong(CONFIRMATION_WINDOW_MS_PROP, CONFIRMATION_WINDOW_MS_DEFAULT);
    private long invocationTimeoutMs = Long.getLong(INVOCATION_TIMEOUT_MS_PROP, INVOCATION_TIMEOUT_MS_DEFAULT);
    private long auditMaxBytes = Long.getLong(AUDIT_MAX_BYTES_PROP, AuditLog.MAX_BYTES_DEFAULT);
    private long busyWaitMs = Long.getLong(BUSY_WAIT_MS_PROP, BUSY_WAIT_MS_DEFAULT);
    /** -1: no TCP. */
    private int tcpPort = Integer.getInteger(TCP_PORT_PROP, -1);
    private Path tcpTokenFile = System.getProperty(TCP_TOKEN_FILE_PROP) == null ? null
        : Path.of(System.getProperty(TCP_TOKEN_FILE_PROP));
    private boolean concluded;

    public PcpContext runtimeDirectory(final Path dir) {
        runtimeDirectory = dir;
        return this;
    }

    public PcpContext trustDirectory(final Path dir) {
        trustDirectory = dir;
        return this;
    }

    public PcpContext maxLineBytes(final int bytes) {
        maxLineBytes = bytes;
        return this;
    }

    public PcpContext maxConnections(final int n) {
        maxConnections = n;
        return this;
    }

    public PcpContext rate(final int burst, final int perSecond) {
        rateBurst = burst;
        ratePerSecond = perSecond;
        return this;
    }

    public PcpContext confirmationWindowMs(final long ms) {
        confirmationWindowMs = ms;
        return this;
    }

    public PcpContext invocationTimeoutMs(final long ms) {
        invocationTimeoutMs = ms;
        return this;
    }

    public PcpContext auditMaxBytes(final long bytes) {
        auditMaxBytes = bytes;
        return this;
    }

    public PcpContext busyWaitMs(final long ms) {
        busyWaitMs = ms;
        return this;
    }

    /** Loopback TCP on {@code port} (0: any), authenticated by the token in {@code tokenFile} (0600). */
    public PcpContext tcp(final int port, final Path tokenFile) {
        tcpPort = port;
        tcpTokenFile = tokenFile;
        return this;
    }

    public PcpContext conclude() {
        if (concluded) {
            throw new IllegalStateException("PcpContext concluded twice");
        }
        concluded = true;
        if (runtimeDirectory == null) {
            throw new IllegalStateException("PcpContext needs the runtime directory");
        }
        socket = runtimeDirectory.resolve(RuntimeDirectory.PCP_SOCKET_NAME);
        hostSocket = runtimeDirectory.resolve(HostConfirmations.SOCKET_NAME);
        auditFile = runtimeDirectory.resolve(AuditLog.FILE_NAME);
        if (trustDirectory == null) {
            trustDirectory = TrustedKeys.defaultDirectory(System.getenv());
        }
        check(maxLineBytes >= 1024, MAX_LINE_BYTES_PROP + "=" + maxLineBytes + " (at least 1024)");
        check(maxConnections > 0, MAX_CONNECTIONS_PROP + "=" + maxConnections);
        check(rateBurst > 0 && ratePerSecond > 0, RATE_BURST_PROP + "/" + RATE_PER_SECOND_PROP + " must be positive");
        check(confirmationWindowMs > 0, CONFIRMATION_WINDOW_MS_PROP + "=" + confirmationWindowMs);
        check(invocationTimeoutMs > 0, INVOCATION_TIMEOUT_MS_PROP + "=" + invocationTimeoutMs);
        check(busyWaitMs >= 0, BUSY_WAIT_MS_PROP + "=" + busyWaitMs);
        check(tcpPort < 0 || tcpTokenFile != null, TCP_PORT_PROP + " needs " + TCP_TOKEN_FILE_PROP);
        return this;
    }

    private static void check(final boolean ok, final String what) {
        if (!ok) {
            throw new IllegalArgumentException("bad PCP setting: " + what);
        }
    }

    public Path socket() {
        return socket;
    }

    public Path hostSocket() {
        return hostSocket;
    }

    public Path auditFile() {
        return auditFile;
    }

    public Path trustDirectory() {
        return trustDirectory;
    }

    public int maxLineBytes() {
        return maxLineBytes;
    }

    public int maxConnections() {
        return maxConnections;
    }

    public int rateBurst() {
        return rateBurst;
    }

    public int ratePerSecond() {
        return ratePerSecond;
    }

    public long confirmationWindowMs() {
        return confirmationWindowMs;
    }

    public long invocationTimeoutMs() {
        return invocationTimeoutMs;
    }

    public long auditMaxBytes() {
        return auditMaxBytes;
    }

    public java.time.Duration busyWait() {
        return java.time.Duration.ofMillis(busyWaitMs);
    }

    public int tcpPort() {
        return tcpPort;
    }

    public Path tcpTokenFile() {
        return tcpTokenFile;
    }
}
