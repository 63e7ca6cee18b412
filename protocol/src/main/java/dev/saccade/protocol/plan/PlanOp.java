package dev.saccade.protocol.plan;

/**
 * Opcodes of {@link PlanCommandFlyweight} (u16) and the arguments each takes. Every argument a
 * command does not use is 0, and {@link PlanValidator} refuses a command whose unused arguments
 * are not: an encoder bug or a corrupted record shows at once instead of being half-executed.
 *
 * <table>
 *   <caption>Arguments (a, b i32; c, d u64)</caption>
 *   <tr><th>op</th><th>a</th><th>b</th><th>c</th><th>effect</th></tr>
 *   <tr><td>MOVE</td><td>x_q8</td><td>y_q8</td><td>–</td><td>pointer to the absolute desktop
 *       point (Q8 pixels)</td></tr>
 *   <tr><td>BUTTON_DOWN / BUTTON_UP</td><td>button bit: exactly one of LEFT 0x1, RIGHT 0x2,
 *       MIDDLE 0x4 ({@link dev.saccade.protocol.Button})</td><td>–</td><td>–</td><td>press /
 *       release at the current pointer</td></tr>
 *   <tr><td>KEY_DOWN / KEY_UP</td><td>USB HID keyboard-page usage, 1..0xFFFF</td><td>–</td>
 *       <td>–</td><td>press / release one key</td></tr>
 *   <tr><td>MODIFIERS_DOWN / MODIFIERS_UP</td><td>modifier bits, non-zero, within 0xF
 *       ({@link dev.saccade.protocol.Modifier})</td><td>–</td><td>–</td><td>press SHIFT, CONTROL,
 *       ALT, META in that order / release them in reverse</td></tr>
 *   <tr><td>SCROLL</td><td>dx_q8</td><td>dy_q8</td><td>–</td><td>scroll by Q8 wheel deltas;
 *       at least one non-zero</td></tr>
 *   <tr><td>TEXT</td><td>offset into the plan's text (u32)</td><td>length in bytes, ≥ 1
 *       (u32)</td><td>window id the text is for, 0 = the focused one</td><td>wait (briefly) until
 *       that window is active, then type the slice, which is strict UTF-8 and lies inside the
 *       text</td></tr>
 *   <tr><td>WINDOW_ACTIVATE</td><td>–</td><td>–</td><td>window id (0: the active
 *       window)</td><td>ask the window manager to activate it</td></tr>
 *   <tr><td>WINDOW_CYCLE</td><td>1 = backward, 0 = forward</td><td>–</td><td>–</td><td>focus
 *       the next (previous) window</td></tr>
 *   <tr><td>RELEASE_ALL</td><td>–</td><td>–</td><td>–</td><td>release every key and button the
 *       helper's ledger holds</td></tr>
 *   <tr><td>ACTION_END</td><td>–</td><td>–</td><td>–</td><td>batch action {@code action_index}
 *       is complete: the helper counts it in {@code completed_actions}</td></tr>
 * </table>
 *
 * <p>{@code d} is a duration in nanoseconds, at most 60 s, on three ops only (0: as before):
 * MOVE glides to its point over that time in paced steps; SCROLL spreads its deltas over it;
 * BUTTON_DOWN of a plan that keeps input held ends its lease after it, releasing by itself
 * (agent-abi §5.15). Every other op has {@code d} = 0. 0 is not an op.
 */
public final class PlanOp {
    public static final int MOVE = 1;
    public static final int BUTTON_DOWN = 2;
    public static final int BUTTON_UP = 3;
    public static final int KEY_DOWN = 4;
    public static final int KEY_UP = 5;
    public static final int MODIFIERS_DOWN = 6;
    public static final int MODIFIERS_UP = 7;
    public static final int SCROLL = 8;
    public static final int TEXT = 9;
    public static final int WINDOW_ACTIVATE = 10;
    public static final int WINDOW_CYCLE = 11;
    public static final int RELEASE_ALL = 12;
    public static final int ACTION_END = 13;
    /** The highest op of this version. */
    public static final int LAST = ACTION_END;

    /** WINDOW_CYCLE's {@code a} for backward. */
    public static final int CYCLE_BACKWARD = 1;

    private static final String[] NAMES = {
        "NONE", "MOVE", "BUTTON_DOWN", "BUTTON_UP", "KEY_DOWN", "KEY_UP", "MODIFIERS_DOWN", "MODIFIERS_UP",
        "SCROLL", "TEXT", "WINDOW_ACTIVATE", "WINDOW_CYCLE", "RELEASE_ALL", "ACTION_END"};

    private PlanOp() {
    }

    public static boolean isKnown(final int op) {
        return op >= MOVE && op <= LAST;
    }

    /** The op's name, or "UNKNOWN". */
    public static String name(final int op) {
        return isKnown(op) ? NAMES[op] : "UNKNOWN";
    }
}
