package dev.saccade.owner;

/**
 * What {@link OwnerRunner} runs on its thread: small steps of work that never block, a word on
 * whether an idle loop may sleep long, and a close on that same thread.
 */
public interface LoopAgent extends AutoCloseable {
    /** One tick. @return the number of things done; 0 lets the idle strategy back off. */
    int doWork(long nowNs);

    /** Nothing can arrive without a wake-up, so the idle strategy may park long. */
    boolean quiescent();

    /**
     * Whether the loop may sleep on its clients' sockets (D69): if every client waits for its
     * next request, arms their sockets in its {@link ClientReadiness} and answers how long it may
     * sleep ({@link Long#MAX_VALUE} when nothing bounds it, else until a parked read's deadline);
     * 0 when something needs a look within the park cap.
     */
    default long calmNs(final long nowNs) {
        return 0;
    }

    @Override
    void close();
}
