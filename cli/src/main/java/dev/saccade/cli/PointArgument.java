package dev.saccade.cli;

import dev.saccade.protocol.RectQ8;
import java.math.BigDecimal;
import java.math.RoundingMode;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A point given on the command line as {@code X,Y} in desktop units, held in Q8 (× 256,
 * spec §0), rounded to the nearest 1/256 as {@link RectArgument} rounds. Negative values are
 * points left of or above the primary display.
 */
public record PointArgument(int xQ8, int yQ8) {
    /** Format in help texts and messages. */
    static final String FORMAT = "X,Y";

    private static final BigDecimal ONE_Q8 = BigDecimal.valueOf(RectQ8.ONE);

    /** Parses {@code X,Y}. */
    /** The point as the agent client takes it. */
    public dev.saccade.client.Q8Point q8() {
        return new dev.saccade.client.Q8Point(xQ8, yQ8);
    }

    static PointArgument parse(final String text) {
        final String[] parts = text.split(",", -1);
        if (parts.length != 2) {
            throw new TypeConversionException("expected " + FORMAT + " (two numbers in desktop units, e.g. 330,365.5)"
                + " but was '" + text + "'");
        }
        return new PointArgument(toQ8(parts[0], "X in " + FORMAT + " '" + text + "'"),
            toQ8(parts[1], "Y in " + FORMAT + " '" + text + "'"));
    }

    /** Desktop units to Q8; {@code what} names the value in messages. */
    static int toQ8(final String units, final String what) {
        final BigDecimal value;
        try {
            value = new BigDecimal(units.trim());
        } catch (final NumberFormatException e) {
            throw new TypeConversionException("expected a number in desktop units (decimals allowed) for " + what);
        }
        final BigDecimal q8 = value.multiply(ONE_Q8).setScale(0, RoundingMode.HALF_EVEN);
        if (q8.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) < 0
            || q8.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw new TypeConversionException("outside the desktop range ±8388607: " + what);
        }
        return q8.intValueExact();
    }

    /** picocli converter for {@code --at} and {@code --to-at}. */
    static final class Converter implements ITypeConverter<PointArgument> {
        @Override
        public PointArgument convert(final String value) {
            return parse(value);
        }
    }

    /** picocli converter for one distance in desktop units to Q8 ({@code --dx}, {@code --dy}). */
    static final class UnitsQ8 implements ITypeConverter<Integer> {
        @Override
        public Integer convert(final String value) {
            return toQ8(value, "'" + value + "'");
        }
    }
}
