package dev.saccade.protocol;

/**
 * The table of spec §5.8, column by column, for every action kind: allowed flags, the connection
 * capability it needs, how many targets it names, whether it takes exactly one button, the target
 * capabilities it needs, and §5.10's accepted key usages. The service's planner enforces these;
 * clients check them early to give a usage error instead of a refused row.
 */
public final class ActionRules {
    private ActionRules() {
    }


    /** Allowed per-action flags, or -1 for an unknown kind. */
    public static int allowedFlags(final int kind) {
        switch (kind) {
            case ActionKind.POINTER_MOVE:
            case ActionKind.POINTER_HOVER:
            case ActionKind.CLICK:
            case ActionKind.INVOKE:
            case ActionKind.HOLD:
            case ActionKind.DRAG_DROP:
            case ActionKind.TEXT_SELECT:
            case ActionKind.SCROLL:
                return ActionFlag.EXPLICIT_POINTS;
            case ActionKind.TEXT:
                return ActionFlag.EXPLICIT_POINTS | ActionFlag.FILL;
            case ActionKind.WINDOW_CYCLE:
                return ActionFlag.CYCLE_BACKWARD;
            case ActionKind.SET_VALUE:
                return ActionFlag.VALUE_NUMBER;
            case ActionKind.SELECT:
            case ActionKind.WINDOW_ACTIVATE:
            case ActionKind.KEY:
            case ActionKind.KEY_CHORD:
            case ActionKind.RELEASE:
            case ActionKind.ABORT:
            case ActionKind.QUERY_PHYSICAL_STATE:
                return 0;
            default:
                return -1;
        }
    }

    public static int capability(final int kind) {
        switch (kind) {
            case ActionKind.TEXT:
            case ActionKind.SET_VALUE:
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

    /** How many targets the kind names: 0, 1 or 2; -1 where target ids are not looked at. */
    public static int targets(final int kind) {
        switch (kind) {
            case ActionKind.DRAG_DROP:
            case ActionKind.TEXT_SELECT:
                return 2;
            case ActionKind.KEY:
            case ActionKind.KEY_CHORD:
            case ActionKind.RELEASE:
            case ActionKind.ABORT:
            case ActionKind.QUERY_PHYSICAL_STATE:
            case ActionKind.WINDOW_CYCLE:
                return 0;
            default:
                return 1;
        }
    }

    public static boolean needsOneButton(final int kind) {
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

    public static int firstTargetCapability(final int kind) {
        switch (kind) {
            case ActionKind.POINTER_MOVE:
            case ActionKind.POINTER_HOVER:
                return TargetCapability.POINTER_MOVE;
            case ActionKind.CLICK:
            case ActionKind.HOLD:
                return TargetCapability.CLICK;
            case ActionKind.INVOKE:
                return TargetCapability.INVOKE;
            case ActionKind.DRAG_DROP:
                return TargetCapability.DRAG_SOURCE;
            case ActionKind.TEXT_SELECT:
                return TargetCapability.TEXT_SELECT;
            case ActionKind.SCROLL:
                return TargetCapability.SCROLL;
            case ActionKind.TEXT:
                return TargetCapability.TEXT;
            case ActionKind.SET_VALUE:
                return TargetCapability.TEXT; // text; a number (VALUE_NUMBER) asks for no capability bit
            case ActionKind.WINDOW_ACTIVATE:
                return TargetCapability.WINDOW_ACTIVATE;
            default:
                return 0;
        }
    }

    public static int secondTargetCapability(final int kind) {
        return kind == ActionKind.DRAG_DROP ? TargetCapability.DROP_TARGET : TargetCapability.TEXT_SELECT;
    }

    /** §5.10's accepted HID keyboard-page usages. */
    public static boolean acceptedUsage(final int usage) {
        return (usage >= 0x04 && usage <= 0x31) || (usage >= 0x33 && usage <= 0x52) || (usage >= 0xE0 && usage <= 0xE7);
    }
}
