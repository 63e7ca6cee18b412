package dev.saccade.protocol;

/** Bounds arithmetic of the ABI, done so that no sum or product can wrap (spec §4.1). */
public final class Ranges {
    private Ranges() {
    }

    /**
     * range_valid(off, n, stride, total) ⇔ stride ≠ 0 ∧ off ≤ total ∧ n ≤ ⌊(total − off) / stride⌋.
     * Division instead of multiplication, so n × stride is never formed. Arguments are u32 values
     * read unsigned into longs.
     */
    public static boolean rangeValid(final long off, final long n, final long stride, final long total) {
        return stride != 0 && off <= total && n <= (total - off) / stride;
    }
}
