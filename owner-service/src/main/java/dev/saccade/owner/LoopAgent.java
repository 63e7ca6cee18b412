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

    @Override
    void close();
}
