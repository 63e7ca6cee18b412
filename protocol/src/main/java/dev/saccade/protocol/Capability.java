package dev.saccade.protocol;

/** Connection capabilities (u32 bits) requested at Hello and per request (spec §2). */
public final class Capability {
    public static final int OBSERVE = 0x01;
    public static final int POINTER = 0x02;
    public static final int KEYBOARD = 0x04;
    public static final int CLIPBOARD = 0x08;
    public static final int WINDOW = 0x10;
    public static final int SETTINGS = 0x20;

    /** What the service ever grants: CLIPBOARD, SETTINGS and unknown bits are denied by policy. */
    public static final int POLICY = OBSERVE | POINTER | KEYBOARD | WINDOW;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(OBSERVE)] = "OBSERVE";
        NAMES[Integer.numberOfTrailingZeros(POINTER)] = "POINTER";
        NAMES[Integer.numberOfTrailingZeros(KEYBOARD)] = "KEYBOARD";
        NAMES[Integer.numberOfTrailingZeros(CLIPBOARD)] = "CLIPBOARD";
        NAMES[Integer.numberOfTrailingZeros(WINDOW)] = "WINDOW";
        NAMES[Integer.numberOfTrailingZeros(SETTINGS)] = "SETTINGS";
    }

    private Capability() {
    }
}
