package dev.saccade.pcp;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PCP inside a running owner, started beside it rather than before it: binding the PCP socket
 * may have to wait for the owner being replaced (an upgrade or restart in place keeps the old
 * owner alive until it hands over the agent endpoint, and PCP has no descriptor handoff: its
 * clients reconnect). So the start runs on its own thread with a long busy wait, and a PCP that
 * cannot start is logged, never a reason for the owner not to run.
 */
public final class OwnerPcp implements AutoCloseable {
    /** How long the PCP of a new owner waits for the old owner's PCP socket to go away. */
    public static final long OWNER_BUSY_WAIT_MS = 60_000;
    private static final Duration AGENT_TIMEOUT = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(OwnerPcp.class);

    private final Thread starter;
    /** Guarded by this. */
    private PcpEndpoint endpoint;
    /** Guarded by this. */
    private boolean closed;

    private OwnerPcp(final Path runtimeDirectory, final Path agentEndpoint, final String display) {
        starter = new Thread(() -> run(runtimeDirectory, agentEndpoint, display), "saccade-pcp-start");
        starter.setDaemon(true);
    }

    /**
     * Starts PCP for the owner whose agent endpoint is {@code agentEndpoint}; {@code null} when
     * {@value PcpConfiguration#ENABLED_PROP_NAME} is {@code false}. PCP reaches the desktop only through that endpoint;
     * {@code display} is named in query.session_context.
     */
    public static OwnerPcp start(final Path runtimeDirectory, final Path agentEndpoint, final String display) {
        if (!PcpConfiguration.enabled()) {
            return null;
        }
        final OwnerPcp pcp = new OwnerPcp(runtimeDirectory, agentEndpoint, display);
        pcp.starter.start();
        return pcp;
    }

    private void run(final Path runtimeDirectory, final Path agentEndpoint, final String display) {
        final AgentScene scene = new AgentScene(agentEndpoint, display, AGENT_TIMEOUT);
        try {
            final PcpEndpoint started = PcpEndpoint.start(new PcpContext().runtimeDirectory(runtimeDirectory)
                .busyWaitMs(PcpConfiguration.busyWaitMs(OWNER_BUSY_WAIT_MS)).conclude(), scene);
            started.attach(scene, agentEndpoint);
            synchronized (this) {
                if (!closed) {
                    endpoint = started;
                    LOG.info("event=pcp_start endpoint={} agent_endpoint={}", started.server().path(), agentEndpoint);
                    return;
                }
            }
            started.close(); // the owner stopped while we were binding
        } catch (final IOException | RuntimeException e) {
            scene.close();
            synchronized (this) {
                if (closed) {
                    return; // interrupted by close: not a failure
                }
            }
            LOG.warn("event=pcp_start_failed runtime_directory={} error={}", runtimeDirectory, e.toString());
        }
    }

    /** The running endpoint, or {@code null} while it is starting or when it could not start. */
    public synchronized PcpEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public void close() throws IOException {
        final PcpEndpoint running;
        synchronized (this) {
            closed = true;
            running = endpoint;
            endpoint = null;
        }
        starter.interrupt(); // ends a busy wait for the socket
        try {
            starter.join(TimeUnit.SECONDS.toMillis(5));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (running != null) {
            running.close();
        }
    }
}
