package dev.saccade.protocol;

/**
 * Bits of the HelloRequest's {@code flags} field (offset 28): what a client asks to receive beyond
 * the base ABI (spec §1.4). The service answers the bits it accepted in the HelloCompletion's
 * word at offset 36 ({@code accepted_flags}); a client that sends 0, as every client of the base
 * ABI does, gets exactly the base ABI.
 */
public final class HelloFlag {
    /** Target roles 11–27 (§2 "Extended roles"); without it each is sent as its base role. */
    public static final int EXTENDED_ROLES = 0x1;
    /** Target states in the Target record's word at offset 84 (§2 "Target states"); without it 0. */
    public static final int TARGET_STATES = 0x2;
    /**
     * A WINDOW target's facts in its {@code states} word (§2 "Window facts"): MINIMIZED and the
     * owning process id; without it those bits are 0. In the upper half of the word, where
     * upstream names nothing (D25).
     */
    public static final int WINDOW_FACTS = 0x10000;
    /** The semantic action kinds SET_VALUE and SELECT (§5.8); without it they are kinds without a name (D25). */
    public static final int SEMANTIC_ACTIONS = 0x20000;
    /**
     * KEY, KEY_CHORD and TEXT while a password field has the keyboard focus (D30). Accepted only
     * when the user granted it to the owner ({@code saccade.owner.secure.input.granted}); without
     * it such an action is SECURE_SURFACE and nothing is typed.
     */
    public static final int SECURE_INPUT = 0x40000;
    /** Every bit this service knows. */
    public static final int KNOWN = EXTENDED_ROLES | TARGET_STATES | WINDOW_FACTS | SEMANTIC_ACTIONS | SECURE_INPUT;

    private HelloFlag() {
    }
}
