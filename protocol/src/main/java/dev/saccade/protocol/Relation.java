package dev.saccade.protocol;

/** Relations of a candidate target to a related one (spec §5.6); NEAREST is rejected at validation. */
public final class Relation {
    public static final int SELF = 1;
    public static final int PARENT = 2;
    public static final int CHILD = 3;
    public static final int ANCESTOR = 4;
    public static final int DESCENDANT = 5;
    public static final int SIBLING = 6;
    public static final int CONTAINS = 7;
    public static final int CONTAINED_BY = 8;
    public static final int NEAREST = 9;

    private Relation() {
    }

    /** The value's name, or "UNKNOWN". */
    public static String name(final int value) {
        switch (value) {
            case SELF: return "SELF";
            case PARENT: return "PARENT";
            case CHILD: return "CHILD";
            case ANCESTOR: return "ANCESTOR";
            case DESCENDANT: return "DESCENDANT";
            case SIBLING: return "SIBLING";
            case CONTAINS: return "CONTAINS";
            case CONTAINED_BY: return "CONTAINED_BY";
            case NEAREST: return "NEAREST";
            default: return "UNKNOWN";
        }
    }
}
