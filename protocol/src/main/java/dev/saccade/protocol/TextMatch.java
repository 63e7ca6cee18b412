package dev.saccade.protocol;

/** How a filter's text matches a target's text: raw UTF-8 bytes, case-sensitive (spec §5.6). */
public final class TextMatch {
    public static final int EXACT = 1;
    public static final int PREFIX = 2;
    public static final int SUBSTRING = 3;

    private TextMatch() {
    }

    /** The value's name, or "UNKNOWN". */
    public static String name(final int value) {
        switch (value) {
            case EXACT: return "EXACT";
            case PREFIX: return "PREFIX";
            case SUBSTRING: return "SUBSTRING";
            default: return "UNKNOWN";
        }
    }
}
