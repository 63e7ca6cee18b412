package dev.saccade.protocol;

/**
 * ActionResult {@code flags} bits (u32, offset 40 of a row, spec §3): 0 in the base ABI. The low
 * bits are API 0x00010002's, written only to a connection that speaks it; {@link #SEMANTIC} is
 * ours, written only to a connection that asked for {@link HelloFlag#SEMANTIC_ACTIONS}, in the
 * upper half of the word, apart from upstream's (D25).
 */
public final class ActionResultFlag {
    /** API 0x00010002: the action ran through accessibility on a window that was not raised. */
    public static final int BACKGROUND_ACCESSIBILITY = 0x1;
    /** API 0x00010002: under DRY_RUN, the action would have activated its window first. */
    public static final int WOULD_ACTIVATE = 0x2;
    /** API 0x00010002: the service activated the action's window before sending its input. */
    public static final int WINDOW_ACTIVATED = 0x4;
    /** Upstream's macOS event-path bit; never written by this service. */
    public static final int CG_EVENT = 0x8;
    /** The action ran through the application's accessibility interface: no input was emitted (§5.8 rule H). */
    public static final int SEMANTIC = 0x10000;

    private ActionResultFlag() {
    }
}
