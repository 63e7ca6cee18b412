package dev.saccade.protocol;

/**
 * ActionResult {@code flags} bits (u32, offset 40 of a row, spec §3): 0 in the base ABI. Written
 * only to a connection that asked for {@link HelloFlag#SEMANTIC_ACTIONS}; in the upper half of
 * the word, apart from upstream's row flags (D25).
 */
public final class ActionResultFlag {
    /** The action ran through the application's accessibility interface: no input was emitted (§5.8 rule H). */
    public static final int SEMANTIC = 0x10000;

    private ActionResultFlag() {
    }
}
