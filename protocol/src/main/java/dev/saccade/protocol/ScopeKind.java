package dev.saccade.protocol;

/** Scope kinds (u32): which part of the scene a read covers (spec §2, §5.3). */
public final class ScopeKind {
    public static final int ACTIVE_WINDOW = 1;
    public static final int DISPLAY = 2;
    public static final int DESKTOP = 3;
    public static final int RECT = 4;
    /** One named window, active or not (API 0x00010002 only; §5.3). */
    public static final int WINDOW = 5;

    private ScopeKind() {
    }

    /** The value's name, or "UNKNOWN". */
    public static String name(final int value) {
        switch (value) {
            case ACTIVE_WINDOW: return "ACTIVE_WINDOW";
            case DISPLAY: return "DISPLAY";
            case DESKTOP: return "DESKTOP";
            case RECT: return "RECT";
            case WINDOW: return "WINDOW";
            default: return "UNKNOWN";
        }
    }
}
