package dev.saccade.ipc.link;

/** Record types of the link's rings (the {@code type} of {@link RingDescriptor}'s header). */
public final class LinkRecordType {
    /** An {@link dev.saccade.protocol.plan.ActionPlanFlyweight}, owner to helper. */
    public static final int PLAN = 1;
    /** A {@link dev.saccade.protocol.plan.PlanCompletionFlyweight}, helper to owner. */
    public static final int COMPLETION = 2;

    private LinkRecordType() {
    }
}
