package dev.saccade.protocol;

/** Source modes (u32) of a scope; 0 acts as FUSED (spec §4.2, §5.3). */
public final class SourceMode {
    public static final int PIXEL = 1;
    public static final int SEMANTIC = 2;
    public static final int GRID = 3;
    public static final int FUSED = 4;

    private SourceMode() {
    }

    /** The value's name, or "UNKNOWN". */
    public static String name(final int value) {
        switch (value) {
            case PIXEL: return "PIXEL";
            case SEMANTIC: return "SEMANTIC";
            case GRID: return "GRID";
            case FUSED: return "FUSED";
            default: return "UNKNOWN";
        }
    }
}
