package dev.saccade.atspi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Calls sent together; when the last one is answered the batch is handed to its completion
 * consumer (on dbus-java's reader thread), once. Counting instead of waiting on each call means
 * the collecting thread wakes once per batch, not once per reply.
 *
 * <p>Built and sent by one thread (the source thread); {@link #replied} runs on the reader thread.
 */
final class CallBatch implements Reply.Sink {
    /** Whoever sent the batch; the source thread routes the completed batch back to it. */
    final Object owner;
    final List<Reply> calls = new ArrayList<>();
    private final AtomicInteger outstanding = new AtomicInteger(1);
    private final Consumer<CallBatch> onComplete;

    CallBatch(final Object owner, final Consumer<CallBatch> onComplete) {
        this.owner = owner;
        this.onComplete = onComplete;
    }

    /** Adds a call built with this batch as its sink; call before {@link #seal()}. */
    <R extends Reply> R add(final R call) {
        calls.add(call);
        outstanding.incrementAndGet();
        return call;
    }

    /**
     * Ends the building: the batch completes once every added call is answered (at once if none
     * was added). The initial count of one keeps an early reply from completing a half-built batch.
     */
    void seal() {
        if (outstanding.decrementAndGet() == 0) {
            onComplete.accept(this);
        }
    }

    @Override
    public void replied(final Reply call) {
        if (outstanding.decrementAndGet() == 0) {
            onComplete.accept(this);
        }
    }

    boolean isComplete() {
        return outstanding.get() == 0;
    }

    int size() {
        return calls.size();
    }
}
