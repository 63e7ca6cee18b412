package dev.saccade.ipc.link;

import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * The 16-byte session nonce that binds an input helper to the owner that launched it: the owner
 * writes it into the link file's control block and hands it to the helper's launcher; the helper
 * attaches to a link file and a lifeline only when both show the nonce it was given.
 *
 * <p>Pass it to the helper in its environment ({@value #ENVIRONMENT_VARIABLE}, readable only by
 * our uid through {@code /proc/<pid>/environ}) or on its standard input, never on the command
 * line, which every local user can read in {@code /proc/<pid>/cmdline}. The nonce is not what
 * keeps other users out (the 0600 file and the 0700 runtime directory do); it makes a helper
 * refuse a stale or foreign owner of the same uid, such as a second instance.
 */
public final class SessionNonce {
    public static final int LENGTH = 16;
    /** Where a launcher puts the nonce for the helper, as 32 hex digits. */
    public static final String ENVIRONMENT_VARIABLE = "SACCADE_LINK_NONCE";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private SessionNonce() {
    }

    /** 16 bytes from the platform's CSPRNG. */
    public static byte[] generate() {
        final byte[] nonce = new byte[LENGTH];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    public static String toHex(final byte[] nonce) {
        final char[] out = new char[nonce.length * 2];
        for (int i = 0; i < nonce.length; i++) {
            out[2 * i] = HEX[(nonce[i] >> 4) & 0xF];
            out[2 * i + 1] = HEX[nonce[i] & 0xF];
        }
        return new String(out);
    }

    /** @throws IllegalArgumentException unless {@code hex} is exactly 32 hex digits. */
    public static byte[] fromHex(final String hex) {
        if (hex == null || hex.length() != LENGTH * 2) {
            throw new IllegalArgumentException("a session nonce is " + LENGTH * 2 + " hex digits");
        }
        final byte[] nonce = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            final int hi = Character.digit(hex.charAt(2 * i), 16);
            final int lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("a session nonce is " + LENGTH * 2 + " hex digits");
            }
            nonce[i] = (byte) (hi << 4 | lo);
        }
        return nonce;
    }

    /** Compares in time independent of where the nonces differ. */
    public static boolean matches(final byte[] expected, final byte[] actual) {
        return expected != null && actual != null && expected.length == LENGTH && MessageDigest.isEqual(expected, actual);
    }

    static void checkLength(final byte[] nonce) {
        if (nonce == null || nonce.length != LENGTH) {
            throw new IllegalArgumentException("a session nonce is " + LENGTH + " bytes");
        }
    }
}
