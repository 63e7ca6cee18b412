package dev.saccade.pcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything PCP in one running service: PCP Core, its audit log, the PCP socket
 * ({@code $RUN/saccade-pcp-v1.sock}), the host confirmation socket
 * ({@code $RUN/saccade-pcp-host-v1.sock}) and, when configured, loopback TCP. Closed in reverse.
 */
public final class PcpEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PcpEndpoint.class);

    private final PcpContext context;
    private AgentScene scene;
    private SceneEvents events;
    private AuditLog audit;
    private PcpCoreService core;
    private PcpServer pcp;
    private PcpServer host;

    private PcpEndpoint(final PcpContext context) {
        this.context = context;
    }

    /** Starts PCP on a concluded context; {@code scene} may be {@code null} (no desktop queries). */
    public static PcpEndpoint start(final PcpContext context, final PcpScene scene) throws IOException {
        final PcpEndpoint endpoint = new PcpEndpoint(context);
        try {
            endpoint.audit = new AuditLog(context.auditFile(), context.auditMaxBytes());
            endpoint.core = new PcpCoreService(scene, new TrustedKeys(context.trustDirectory()), endpoint.audit,
                context.confirmationWindowMs(), context.invocationTimeoutMs(), context.prompt());
            final PcpCoreService core = endpoint.core;
            endpoint.pcp = PcpServer.serve(context.socket(), new PcpDispatcher() {
                @Override
                public Object dispatch(final PcpPeer caller, final String method, final Map<String, Object> params)
                    throws PcpError {
                    return core.call(caller, method, params);
                }

                @Override
                public void connected(final PcpPeer peer) {
                    core.connected(peer);
                }

                @Override
                public void disconnected(final PcpPeer peer) {
                    core.disconnected(peer);
                }
            }, context.maxLineBytes(), context.maxConnections(), context.rateBurst(), context.ratePerSecond(),
                context.busyWait());
            endpoint.host = PcpServer.serve(context.hostSocket(), new HostConfirmations(core), context.maxLineBytes(),
                context.maxConnections(), context.rateBurst(), context.ratePerSecond(), context.busyWait());
            if (context.tcpPort() >= 0) {
                endpoint.pcp.serveTcp(context.tcpPort(), readToken(context.tcpTokenFile()));
            }
            return endpoint;
        } catch (final IOException | RuntimeException e) {
            endpoint.close();
            throw e;
        }
    }

    /**
     * Adds the owner's desktop to a started endpoint: events from the generations of
     * {@code agentEndpoint}, published to this core's subscribers.
     */
    void attach(final AgentScene desktop, final Path agentEndpoint) {
        scene = desktop;
        events = new SceneEvents(agentEndpoint, core).start();
        core.subscriptionHook(events::subscribed);
    }

    public SceneEvents events() {
        return events;
    }

    /** The bearer token: the first line of a regular file that only its owner can read. */
    static String readToken(final Path file) throws IOException {
        final int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        if ((mode & 0170000) != 0100000 || (mode & 0077) != 0) {
            throw new IOException("the PCP bearer token file " + file + " must be a regular file of mode 0600 (is "
                + Integer.toOctalString(mode & 07777) + ")");
        }
        final String token = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (token.length() < 16) {
            throw new IOException("the PCP bearer token in " + file + " is shorter than 16 characters");
        }
        return token;
    }

    public PcpCoreService core() {
        return core;
    }

    public PcpServer server() {
        return pcp;
    }

    public AuditLog audit() {
        return audit;
    }

    @Override
    public void close() throws IOException {
        try {
            closeAll(events, host, pcp, scene, core, audit);
        } catch (final IOException e) {
            LOG.warn("event=pcp_close_failed error={}", e.toString());
            throw e;
        }
    }

    /**
     * Closes each of {@code resources} in order ({@code null}s skipped), continuing past
     * failures; the first is thrown with the others suppressed.
     */
    static void closeAll(final AutoCloseable... resources) throws IOException {
        IOException failure = null;
        for (final AutoCloseable c : resources) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (final Exception e) {
                final IOException io = e instanceof IOException ? (IOException) e : new IOException(e);
                if (failure == null) {
                    failure = io;
                } else {
                    failure.addSuppressed(io);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
