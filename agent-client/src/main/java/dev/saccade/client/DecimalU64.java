package dev.saccade.client;

/**
 * The ABI's u64 values (ids, generations, epochs) as decimal strings, the form every 64-bit value
 * takes in JSON (docs/architecture.md, "Rules that hold everywhere"): 0..18446744073709551615,
 * digits only, held in a {@code long}'s bits.
 */
public final class DecimalU64 {
    /** Digits of 2^64 − 1. */
    public static final int MAX_DIGITS = 20;

    private DecimalU64() {
    }

    /** The decimal string of {@code value} read as unsigned. */
    public static String format(final long value) {
        return Long.toUnsignedString(value);
    }

    /** Whether {@code s} is 1 to 20 ASCII digits (leading zeros allowed) whose value fits in 64 bits. */
    public static boolean valid(final CharSequence s) {
        if (s.length() == 0) {
            return false;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
            final int digit = c - '0';
            // v * 10 + digit must stay ≤ 2^64 − 1 (unsigned)
            if (Long.compareUnsigned(v, Long.divideUnsigned(-1L, 10)) > 0
                || Long.compareUnsigned(v * 10, -1L - digit) > 0) {
                return false;
            }
            v = v * 10 + digit;
        }
        return true;
    }

    /**
     * The value of a {@link #valid} string.
     *
     * @throws NumberFormatException for anything else.
     */
    public static long parse(final CharSequence s) {
        if (!valid(s)) {
            throw new NumberFormatException("not a decimal u64 (0..18446744073709551615): '" + s + "'");
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            v = v * 10 + (s.charAt(i) - '0');
        }
        return v;
    }
}
