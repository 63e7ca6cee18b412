package dev.saccade.cli;

import dev.saccade.protocol.RectQ8;
import java.math.BigDecimal;
import java.math.RoundingMode;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A rectangle given on the command line as {@code X,Y,W,H} in desktop units, held in Q8
 * (× 256, spec §0). Decimals are accepted ({@code 10.5}) and rounded to the nearest 1/256;
 * width and height must be positive, because a rect without area intersects nothing (§5.3).
 */
public record RectArgument(int xQ8, int yQ8, int widthQ8, int heightQ8) {
    /** The rect as the agent client takes it. */
    public dev.saccade.client.Q8Rect q8() {
        return new dev.saccade.client.Q8Rect(xQ8, yQ8, widthQ8, heightQ8);
    }

    /** Format in help texts and messages. */
    static final String FORMAT = "X,Y,W,H";

    private static final BigDecimal ONE_Q8 = BigDecimal.valueOf(RectQ8.ONE);

    /** Parses {@code X,Y,W,H}. */
    static RectArgument parse(final String text) {
        final String[] parts = text.split(",", -1);
        if (parts.length != 4) {
            throw new TypeConversionException("expected " + FORMAT + " (four numbers in desktop units, e.g."
                + " 10,20,300,200.5) but was '" + text + "'");
        }
        final int x = toQ8(parts[0], "X", text);
        final int y = toQ8(parts[1], "Y", text);
        final int w = toQ8(parts[2], "W", text);
        final int h = toQ8(parts[3], "H", text);
        if (w <= 0 || h <= 0) {
            throw new TypeConversionException("width and height must be positive (a rect without area intersects"
                + " nothing) but " + FORMAT + " was '" + text + "'");
        }
        return new RectArgument(x, y, w, h);
    }

    private static int toQ8(final String part, final String name, final String text) {
        final BigDecimal units;
        try {
            units = new BigDecimal(part.trim());
        } catch (final NumberFormatException e) {
            throw new TypeConversionException(name + " is not a number in " + FORMAT + " '" + text + "'");
        }
        final BigDecimal q8 = units.multiply(ONE_Q8).setScale(0, RoundingMode.HALF_EVEN);
        if (q8.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) < 0
            || q8.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw new TypeConversionException(name + " is outside the desktop range ±8388607 in " + FORMAT + " '"
                + text + "'");
        }
        return q8.intValueExact();
    }

    /** picocli converter for {@code --rect} and {@code --within}. */
    static final class Converter implements ITypeConverter<RectArgument> {
        @Override
        public RectArgument convert(final String value) {
            return parse(value);
        }
    }
}
