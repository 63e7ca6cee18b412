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
    /** Every bit this service knows. */
    public static final int KNOWN = EXTENDED_ROLES | TARGET_STATES;

    private HelloFlag() {
    }
}
