package dev.saccade.owner;

import dev.saccade.owner.action.BatchRun;
import dev.saccade.protocol.AgentAbi;

/**
 * What the service remembers about one connection between frames (spec §1.3, §5.4). Written and
 * read by the owner thread only.
 */
public final class AgentSession {
    boolean authenticated;
    /** policy ∩ granted at Hello. */
    int available;
    /** The {@link dev.saccade.protocol.HelloFlag} bits accepted at Hello (extended roles, states). */
    int helloFlags;
    /** The API version the Hello named (§1.4): every frame carries it, every reply echoes it. */
    int apiVersion = AgentAbi.API_VERSION;
    /** A read waiting for a newer generation; its request stays in the channel's buffer. */
    boolean parked;
    long parkDeadlineNs;
    long peerPid;
    /** Names the input this connection leaves held (HOLD); unique per connection, never 0. */
    long leaseId;
    /** The reply being written sends its tail from the service's shared observe body. */
    boolean bodyLent;
    /** The action batch in progress, if any. */
    final BatchRun batch = new BatchRun();

    public boolean authenticated() {
        return authenticated;
    }

    public int available() {
        return available;
    }

    public int apiVersion() {
        return apiVersion;
    }

    public int helloFlags() {
        return helloFlags;
    }

    public boolean parked() {
        return parked;
    }

    public long peerPid() {
        return peerPid;
    }

    public long leaseId() {
        return leaseId;
    }

    /** Back to a fresh, unauthenticated connection (the session object is reused). */
    public AgentSession reset(final long peerPid, final long leaseId) {
        this.leaseId = leaseId;
        batch.reset();
        authenticated = false;
        available = 0;
        helloFlags = 0;
        apiVersion = AgentAbi.API_VERSION;
        batch.helloFlags(0);
        batch.apiVersion(AgentAbi.API_VERSION);
        parked = false;
        parkDeadlineNs = 0;
        this.peerPid = peerPid;
        return this;
    }
}
