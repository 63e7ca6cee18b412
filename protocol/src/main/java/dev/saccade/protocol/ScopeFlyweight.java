package dev.saccade.protocol;

/**
 * Scope, 32 bytes: which part of the scene a read covers, from which sources (spec §5.3).
 * <pre>
 *     0  kind                           i32
 *     4  source_mode                    i32
 *     8  stable_id                      u64
 *    16  rect                           RectQ8 (16)
 *    32  end</pre>
 */
public final class ScopeFlyweight extends Flyweight<ScopeFlyweight> {
    public static final int KIND_OFFSET = 0;
    public static final int SOURCE_MODE_OFFSET = KIND_OFFSET + Integer.BYTES;
    public static final int STABLE_ID_OFFSET = SOURCE_MODE_OFFSET + Integer.BYTES;
    public static final int RECT_OFFSET = STABLE_ID_OFFSET + Long.BYTES;
    public static final int LENGTH = RECT_OFFSET + RectQ8.LENGTH;

    @Override
    public int length() {
        return LENGTH;
    }

    public int kind() {
        return i32(KIND_OFFSET);
    }

    public ScopeFlyweight kind(final int value) {
        putI32(KIND_OFFSET, value);
        return this;
    }

    public int sourceMode() {
        return i32(SOURCE_MODE_OFFSET);
    }

    public ScopeFlyweight sourceMode(final int value) {
        putI32(SOURCE_MODE_OFFSET, value);
        return this;
    }

    public long stableId() {
        return u64(STABLE_ID_OFFSET);
    }

    public ScopeFlyweight stableId(final long value) {
        putU64(STABLE_ID_OFFSET, value);
        return this;
    }

    public int rectXQ8() {
        return i32(RECT_OFFSET + RectQ8.X_OFFSET);
    }

    public int rectYQ8() {
        return i32(RECT_OFFSET + RectQ8.Y_OFFSET);
    }

    public int rectWidthQ8() {
        return i32(RECT_OFFSET + RectQ8.WIDTH_OFFSET);
    }

    public int rectHeightQ8() {
        return i32(RECT_OFFSET + RectQ8.HEIGHT_OFFSET);
    }

    public ScopeFlyweight rect(final int xQ8, final int yQ8, final int widthQ8, final int heightQ8) {
        RectQ8.write(bytes, offset + RECT_OFFSET, xQ8, yQ8, widthQ8, heightQ8);
        return this;
    }
}
