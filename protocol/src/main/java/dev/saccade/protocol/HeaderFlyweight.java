package dev.saccade.protocol;

/**
 * Header of every message, 16 bytes.
 * <pre>
 *  0             4             8              12       16
 *  | struct_size | api_version | message_kind | flags  |
 * </pre>
 */
public final class HeaderFlyweight extends Flyweight<HeaderFlyweight> {
    public static final int STRUCT_SIZE_OFFSET = 0;
    public static final int API_VERSION_OFFSET = STRUCT_SIZE_OFFSET + Integer.BYTES;
    public static final int MESSAGE_KIND_OFFSET = API_VERSION_OFFSET + Integer.BYTES;
    public static final int FLAGS_OFFSET = MESSAGE_KIND_OFFSET + Integer.BYTES;
    public static final int LENGTH = FLAGS_OFFSET + Integer.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public long structSize() {
        return u32(STRUCT_SIZE_OFFSET);
    }

    public HeaderFlyweight structSize(final long value) {
        putU32(STRUCT_SIZE_OFFSET, value);
        return this;
    }

    public int apiVersion() {
        return i32(API_VERSION_OFFSET);
    }

    public HeaderFlyweight apiVersion(final int value) {
        putI32(API_VERSION_OFFSET, value);
        return this;
    }

    public int messageKind() {
        return i32(MESSAGE_KIND_OFFSET);
    }

    public HeaderFlyweight messageKind(final int value) {
        putI32(MESSAGE_KIND_OFFSET, value);
        return this;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public HeaderFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }

    /** Writes a header of this ABI version. */
    public HeaderFlyweight set(final int structSize, final int kind, final int flags) {
        putU32(STRUCT_SIZE_OFFSET, structSize);
        putI32(API_VERSION_OFFSET, AgentAbi.API_VERSION);
        putI32(MESSAGE_KIND_OFFSET, kind);
        putI32(FLAGS_OFFSET, flags);
        return this;
    }
}
