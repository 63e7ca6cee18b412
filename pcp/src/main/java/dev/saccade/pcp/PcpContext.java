package dev.saccade.pcp;

import static dev.saccade.pcp.PcpConfiguration.BUSY_WAIT_MS_PROP_NAME;
import static dev.saccade.pcp.PcpConfiguration.CONFIRMATION_WINDOW_MS_PROP_NAME;
import static dev.saccade.pcp.PcpConfiguration.INVOCATION_TIMEOUT_MS_PROP_NAME;
import static dev.saccade.pcp.PcpConfiguration.MAX_CONNECTIONS_PROP_NAME;
import static dev.saccade.pcp.PcpConfiguration.MAX_LINE_BYTES_PROP_NAME;
import static dev.saccade.pcp.PcpConfiguration.RATE_BURST_PROP_NAME;
import static dev.saccade.pcp.PcpConfiguration.RATE_PER_SECOND_PROP_NAME;
import static dev.saccade.pcp.PcpConfiguration.TCP_PORT_PROP_NAME;
import static dev.saccade.pcp.PcpConfiguration.TCP_TOKEN_FILE_PROP_NAME;

import dev.saccade.ipc.RuntimeDirectory;
import java.nio.file.Path;

/**
 * Settings of the PCP endpoint, each from its {@link PcpConfiguration} property or default;
 * {@link #conclude()} fills the paths from the runtime directory and checks the rest once.
 */
public final class PcpContext {
    private Path runtimeDirectory;
    private Path socket;
    private Path hostSocket;
    private Path auditFile;
    private Path trustDirectory;
    private int maxLineBytes = PcpConfiguration.maxLineBytes();
    private int maxConnections = PcpConfiguration.maxConnections();
    private int rateBurst = PcpConfiguration.rateBurst();
    private int ratePerSecond = PcpConfiguration.ratePerSecond();
    private long confirmationWindowMs = PcpConfiguration.confirmationWindowMs();
    private long invocationTimeoutMs = PcpConfiguration.invocationTimeoutMs();
    private long auditMaxBytes = PcpConfiguration.auditMaxBytes();
    private long busyWaitMs = PcpConfiguration.busyWaitMs();
    /** -1: no TCP. */
    private int tcpPort = PcpConfiguration.tcpPort();
    private Path tcpTokenFile = PcpConfiguration.tcpTokenFile();
    private boolean concluded;
    /** Where confirmations are shown; {@code null} until {@link #conclude()}: the session bus's notification server. */
    private ConfirmationPrompt prompt;

    public PcpContext runtimeDirectory(final Path dir) {
        runtimeDirectory = dir;
        return this;
    }

    /** Where the audit trail goes (default: {@link AuditLog#defaultDirectory}). */
    public PcpContext auditFile(final Path file) {
        auditFile = file;
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

    /** Shows confirmations on {@code where} instead of the session bus of this process's environment. */
    public PcpContext prompt(final ConfirmationPrompt where) {
        prompt = where;
        return this;
    }

    /** Shows confirmations as notifications on the session bus at {@code address} (a test desktop's). */
    public PcpContext notificationBus(final String address) {
        prompt = new NotificationPrompt(address);
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
        if (auditFile == null) {
            auditFile = AuditLog.defaultDirectory(System.getenv(), runtimeDirectory).resolve(AuditLog.FILE_NAME);
        }
        if (prompt == null) {
            prompt = NotificationPrompt.fromEnvironment(System.getenv());
        }
        if (trustDirectory == null) {
            trustDirectory = TrustedKeys.defaultDirectory(System.getenv());
        }
        check(maxLineBytes >= 1024, MAX_LINE_BYTES_PROP_NAME + "=" + maxLineBytes + " (at least 1024)");
        check(maxConnections > 0, MAX_CONNECTIONS_PROP_NAME + "=" + maxConnections);
        check(rateBurst > 0 && ratePerSecond > 0, RATE_BURST_PROP_NAME + "/" + RATE_PER_SECOND_PROP_NAME + " must be positive");
        check(confirmationWindowMs > 0, CONFIRMATION_WINDOW_MS_PROP_NAME + "=" + confirmationWindowMs);
        check(invocationTimeoutMs > 0, INVOCATION_TIMEOUT_MS_PROP_NAME + "=" + invocationTimeoutMs);
        check(busyWaitMs >= 0, BUSY_WAIT_MS_PROP_NAME + "=" + busyWaitMs);
        check(tcpPort < 0 || tcpTokenFile != null, TCP_PORT_PROP_NAME + " needs " + TCP_TOKEN_FILE_PROP_NAME);
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

    ConfirmationPrompt prompt() {
        return prompt;
    }

    public Path tcpTokenFile() {
        return tcpTokenFile;
    }
}
