package dev.saccade.owner.action;

import java.util.concurrent.CompletableFuture;

/**
 * Progress of one connection's action batch between owner ticks: which action is next, the
 * foreground it started against, and the plan or semantic invoke it waits for. The request
 * stays in the channel's buffer and the completion grows in its response buffer meanwhile.
 * Owner thread only; one per connection, reused.
 */
public final class BatchRun {
    boolean active;
    int index;
    int rows;
    int completed;
    long startProcess;
    long startWindow;
    long startDisplay;
    long startScene;
    long startPermission;
    long waitingPlan;
    /** A semantic INVOKE in flight (allocated only on that path). */
    CompletableFuture<Integer> waitingInvoke;

    public boolean active() {
        return active;
    }

    public void reset() {
        active = false;
        index = 0;
        rows = 0;
        completed = 0;
        waitingPlan = 0;
        waitingInvoke = null;
    }
}
