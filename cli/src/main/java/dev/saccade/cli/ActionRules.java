package dev.saccade.cli;

import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Capability;

/**
 * The table of spec §5.8 as {@code saccade act} needs it: the columns the service checks come
 * from {@link dev.saccade.protocol.ActionRules}; this adds which options shape each kind. The service
 * checks the same rules (and answers INVALID_MESSAGE or ACTION_UNSUPPORTED rows); checking them
 * here makes a wrong command line a usage error that names the option.
 */
final class ActionRules {
    private ActionRules() {
    }

    /** Column "Cap": the capability the kind needs in the batch's requested set (§5.1). */
    static int capability(final int kind) {
        return dev.saccade.protocol.ActionRules.capability(kind);
    }

    /** Column "Rule": how many targets the kind names (0, 1, or 2: {@code --target} and {@code --to}). */
    static int targets(final int kind) {
        return dev.saccade.protocol.ActionRules.targets(kind);
    }

    /** Column "Flags": EXPLICIT_POINTS allowed, so {@code --at} may replace the safe point. */
    static boolean takesPoints(final int kind) {
        return (dev.saccade.protocol.ActionRules.allowedFlags(kind) & ActionFlag.EXPLICIT_POINTS) != 0;
    }

    /** Column "Button": exactly one button ({@code --button}, default left). */
    /** The kinds a duration applies to (agent-abi §5.15). */
    static boolean takesDuration(final int kind) {
        return kind == ActionKind.POINTER_MOVE || kind == ActionKind.POINTER_HOVER || kind == ActionKind.DRAG_DROP
            || kind == ActionKind.TEXT_SELECT || kind == ActionKind.HOLD || kind == ActionKind.SCROLL;
    }

    static boolean takesButton(final int kind) {
        return dev.saccade.protocol.ActionRules.needsOneButton(kind);
    }

    /** Kinds whose input repeats (click counts 1..repeat). */
    static boolean takesRepeat(final int kind) {
        return kind == ActionKind.CLICK || kind == ActionKind.INVOKE;
    }

    /** Kinds whose input holds modifiers down around it. */
    static boolean takesModifiers(final int kind) {
        return kind == ActionKind.CLICK || kind == ActionKind.INVOKE || takesKey(kind);
    }

    /** Kinds that press a key ({@code --key}, required). */
    static boolean takesKey(final int kind) {
        return kind == ActionKind.KEY || kind == ActionKind.KEY_CHORD;
    }
}
