package dev.saccade.cli;

import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Capability;

/**
 * The table of spec §5.8 as {@code saccade act} needs it: per action kind, the connection
 * capability it needs, how many targets it names, and which options shape it. The service
 * checks the same rules (and answers INVALID_MESSAGE or ACTION_UNSUPPORTED rows); checking them
 * here makes a wrong command line a usage error that names the option.
 */
final class ActionRules {
    private ActionRules() {
    }

    /** Column "Cap": the capability the kind needs in the batch's requested set (§5.1). */
    static int capability(final int kind) {
        switch (kind) {
            case ActionKind.TEXT:
                return Capability.KEYBOARD | Capability.POINTER;
            case ActionKind.KEY:
            case ActionKind.KEY_CHORD:
                return Capability.KEYBOARD;
            case ActionKind.WINDOW_ACTIVATE:
            case ActionKind.WINDOW_CYCLE:
                return Capability.WINDOW;
            case ActionKind.QUERY_PHYSICAL_STATE:
                return Capability.OBSERVE;
            default:
                return Capability.POINTER;
        }
    }

    /** Column "Rule": how many targets the kind names (0, 1, or 2: {@code --target} and {@code --to}). */
    static int targets(final int kind) {
        switch (kind) {
            case ActionKind.DRAG_DROP:
            case ActionKind.TEXT_SELECT:
                return 2;
            case ActionKind.KEY:
            case ActionKind.KEY_CHORD:
            case ActionKind.RELEASE:
            case ActionKind.WINDOW_CYCLE:
            case ActionKind.ABORT:
            case ActionKind.QUERY_PHYSICAL_STATE:
                return 0;
            default:
                return 1;
        }
    }

    /** Column "Flags": EXPLICIT_POINTS allowed, so {@code --at} may replace the safe point. */
    static boolean takesPoints(final int kind) {
        switch (kind) {
            case ActionKind.POINTER_MOVE:
            case ActionKind.POINTER_HOVER:
            case ActionKind.CLICK:
            case ActionKind.INVOKE:
            case ActionKind.HOLD:
            case ActionKind.DRAG_DROP:
            case ActionKind.TEXT_SELECT:
            case ActionKind.SCROLL:
            case ActionKind.TEXT:
                return true;
            default:
                return false;
        }
    }

    /** Column "Button": exactly one button ({@code --button}, default left). */
    static boolean takesButton(final int kind) {
        switch (kind) {
            case ActionKind.CLICK:
            case ActionKind.INVOKE:
            case ActionKind.HOLD:
            case ActionKind.DRAG_DROP:
            case ActionKind.TEXT_SELECT:
            case ActionKind.TEXT:
            case ActionKind.RELEASE:
                return true;
            default:
                return false;
        }
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
