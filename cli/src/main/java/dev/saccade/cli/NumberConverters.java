package dev.saccade.cli;

import dev.saccade.protocol.AgentAbi;
import java.math.BigDecimal;
import java.math.RoundingMode;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Converters for the numeric words of the command line that Java's own parsing gets wrong. */
final class NumberConverters {
    /** Q16 fixed point: 65536 = 1.0 (spec/mcp.md, minimumConfidenceQ16). */
    static final long ONE_Q16 = 1L << 16;

    private NumberConverters() {
    }

    /**
     * An unsigned 64-bit id or generation in decimal (0..18446744073709551615): the ABI's u64
     * values, printed by {@code --json} as decimal strings. Java's {@code long} would refuse the
     * upper half.
     */
    static final class U64 implements ITypeConverter<Long> {
        @Override
        public Long convert(final String value) {
            try {
                return Long.parseUnsignedLong(value.trim());
            } catch (final NumberFormatException e) {
                throw new TypeConversionException("expected a decimal number 0..18446744073709551615 but was '"
                    + value + "'");
            }
        }
    }

    /** A fraction 0..1 (decimals allowed) to Q16, rounded to the nearest 1/65536: 1 → 65536. */
    static final class FractionQ16 implements ITypeConverter<Long> {
        @Override
        public Long convert(final String value) {
            final BigDecimal fraction;
            try {
                fraction = new BigDecimal(value.trim());
            } catch (final NumberFormatException e) {
                throw new TypeConversionException("expected a number from 0 to 1 (e.g. 0.75) but was '" + value + "'");
            }
            if (fraction.signum() < 0 || fraction.compareTo(BigDecimal.ONE) > 0) {
                throw new TypeConversionException("expected a number from 0 to 1 (e.g. 0.75) but was '" + value + "'");
            }
            return fraction.multiply(BigDecimal.valueOf(ONE_Q16)).setScale(0, RoundingMode.HALF_UP).longValueExact();
        }
    }

    /**
     * A duration with its unit, {@code 2s}, {@code 500ms} or {@code 1.5s}, to nanoseconds,
     * 1 ns..60 s (agent-abi §5.15, MAX_ACTION_DURATION_NS).
     */
    static final class DurationNs implements ITypeConverter<Long> {
        @Override
        public Long convert(final String value) {
            final String v = value.trim();
            final boolean ms = v.endsWith("ms");
            final String number = ms ? v.substring(0, v.length() - 2) : v.endsWith("s") ? v.substring(0, v.length() - 1) : null;
            BigDecimal ns = null;
            try {
                if (number != null && !number.isEmpty()) {
                    ns = new BigDecimal(number).multiply(BigDecimal.valueOf(ms ? 1_000_000L : 1_000_000_000L))
                        .setScale(0, RoundingMode.HALF_UP);
                }
            } catch (final NumberFormatException e) {
                ns = null;
            }
            if (ns == null || ns.signum() <= 0 || ns.compareTo(BigDecimal.valueOf(AgentAbi.MAX_ACTION_DURATION_NS)) > 0) {
                throw new TypeConversionException("expected a duration with its unit, up to 60s (e.g. 2s, 500ms) but was '"
                    + value + "'");
            }
            return ns.longValueExact();
        }
    }
}
