package dev.saccade.pcp;

import java.nio.file.Path;

/**
 * The PCP endpoint's system properties and their defaults: {@link PcpContext}, {@link OwnerPcp},
 * {@link TrustedKeys} and the agent connection start from these getters. docs/settings.md lists them.
 */
public final class PcpConfiguration {
    /** Serve PCP from the owner; false turns it off. */
    public static final String ENABLED_PROP_NAME = "saccade.pcp.enabled";
    public static final boolean ENABLED_DEFAULT = true;

    /** The longest line, which holds one message. */
    public static final String MAX_LINE_BYTES_PROP_NAME = "saccade.pcp.max.line.bytes";
    /** 1 MiB fits any manifest or element tree we would send. */
    public static final int MAX_LINE_BYTES_DEFAULT = 1 << 20;

    /** PCP connections served at once. */
    public static final String MAX_CONNECTIONS_PROP_NAME = "saccade.pcp.max.connections";
    public static final int MAX_CONNECTIONS_DEFAULT = 32;

    /** Requests one connection may send in a burst. */
    public static final String RATE_BURST_PROP_NAME = "saccade.pcp.rate.burst";
    /** Generous for a caller, small enough to stop a flood at once. */
    public static final int RATE_BURST_DEFAULT = 100;

    /** Requests a connection may send a second, sustained. */
    public static final String RATE_PER_SECOND_PROP_NAME = "saccade.pcp.rate.per.second";
    public static final int RATE_PER_SECOND_DEFAULT = 50;

    /** How long a confirmation token stays valid (the undo window). */
    public static final String CONFIRMATION_WINDOW_MS_PROP_NAME = "saccade.pcp.confirmation.window.ms";
    public static final long CONFIRMATION_WINDOW_MS_DEFAULT = 15_000;

    /** The longest an invoked action may take. */
    public static final String INVOCATION_TIMEOUT_MS_PROP_NAME = "saccade.pcp.invocation.timeout.ms";
    public static final long INVOCATION_TIMEOUT_MS_DEFAULT = 10_000;

    /** Size at which the audit trail starts a new file (it costs at most twice this on disk). */
    public static final String AUDIT_MAX_BYTES_PROP_NAME = "saccade.pcp.audit.max.bytes";
    public static final long AUDIT_MAX_BYTES_DEFAULT = AuditLog.MAX_BYTES_DEFAULT;

    /** How long a starting PCP waits for a live listener on its socket to go; an owner's PCP waits 60 s. */
    public static final String BUSY_WAIT_MS_PROP_NAME = "saccade.pcp.busy.wait.ms";
    public static final long BUSY_WAIT_MS_DEFAULT = 100;

    /** Also listen on this loopback TCP port (0: any), bearer-token authenticated; -1: no TCP. */
    public static final String TCP_PORT_PROP_NAME = "saccade.pcp.tcp.port";
    public static final int TCP_PORT_DEFAULT = -1;

    /** The file (mode 0600) holding the TCP listener's bearer token; required with a TCP port. */
    public static final String TCP_TOKEN_FILE_PROP_NAME = "saccade.pcp.tcp.token.file";

    /** The directory of trusted publishers' keys; unset: {@code $XDG_CONFIG_HOME/saccade/pcp-trust}. */
    public static final String TRUST_DIR_PROP_NAME = "saccade.pcp.trust.dir";

    /** PCP's connection to the agent endpoint is given back after this long without use (§1.1). */
    public static final String IDLE_RELEASE_MS_PROP_NAME = "saccade.pcp.idle.release.ms";
    public static final long IDLE_RELEASE_MS_DEFAULT = 30_000;

    private PcpConfiguration() {
    }

    /** On unless the property is exactly {@code false}. */
    public static boolean enabled() {
        return !"false".equals(System.getProperty(ENABLED_PROP_NAME));
    }

    public static int maxLineBytes() {
        return Integer.getInteger(MAX_LINE_BYTES_PROP_NAME, MAX_LINE_BYTES_DEFAULT);
    }

    public static int maxConnections() {
        return Integer.getInteger(MAX_CONNECTIONS_PROP_NAME, MAX_CONNECTIONS_DEFAULT);
    }

    public static int rateBurst() {
        return Integer.getInteger(RATE_BURST_PROP_NAME, RATE_BURST_DEFAULT);
    }

    public static int ratePerSecond() {
        return Integer.getInteger(RATE_PER_SECOND_PROP_NAME, RATE_PER_SECOND_DEFAULT);
    }

    public static long confirmationWindowMs() {
        return Long.getLong(CONFIRMATION_WINDOW_MS_PROP_NAME, CONFIRMATION_WINDOW_MS_DEFAULT);
    }

    public static long invocationTimeoutMs() {
        return Long.getLong(INVOCATION_TIMEOUT_MS_PROP_NAME, INVOCATION_TIMEOUT_MS_DEFAULT);
    }

    public static long auditMaxBytes() {
        return Long.getLong(AUDIT_MAX_BYTES_PROP_NAME, AUDIT_MAX_BYTES_DEFAULT);
    }

    public static long busyWaitMs() {
        return busyWaitMs(BUSY_WAIT_MS_DEFAULT);
    }

    /** The property, else {@code defaultMs} (an owner's PCP waits longer than a standalone one). */
    public static long busyWaitMs(final long defaultMs) {
        return Long.getLong(BUSY_WAIT_MS_PROP_NAME, defaultMs);
    }

    public static int tcpPort() {
        return Integer.getInteger(TCP_PORT_PROP_NAME, TCP_PORT_DEFAULT);
    }

    /** The token file, or null for the runtime directory's. */
    public static Path tcpTokenFile() {
        final String value = System.getProperty(TCP_TOKEN_FILE_PROP_NAME);
        return value == null ? null : Path.of(value);
    }

    /** The trust directory the property names, or null for the default. */
    public static Path trustDir() {
        final String value = System.getProperty(TRUST_DIR_PROP_NAME);
        return value == null || value.isEmpty() ? null : Path.of(value);
    }

    public static long idleReleaseMs() {
        return Long.getLong(IDLE_RELEASE_MS_PROP_NAME, IDLE_RELEASE_MS_DEFAULT);
    }
}
