package dev.saccade.owner;

/**
 * What the service remembers about one connection between frames (spec §1.3, §5.4). Written and
 * read by the owner thread only.
 */
public final class AgentSession {
    boolean authenticated;
    /** policy ∩ granted at Hello. */
    int available;
    /** A read waiting for a newer generation; its request stays in the channel's buffer. */
    boolean parked;
    long parkDeadlineNs;
    long peerPid;

    public boolean authenticated() {
        return authenticated;
    }

    public int available() {
        return available;
    }

    public boolean parked() {
        return parked;
    }

    public long peerPid() {
        return peerPid;
    }

    /** Back to a fresh, unauthenticated connection (the session object is reused). */
    public AgentSession reset(final long peerPid) {
        authenticated = false;
        available = 0;
        parked = false;
        parkDeadlineNs = 0;
        this.peerPid = peerPid;
        return this;
    }
}
