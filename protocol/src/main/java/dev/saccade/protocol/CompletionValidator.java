package dev.saccade.protocol;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * What a client checks before it trusts a completion frame from a service: the header, the
 * struct size, that {@code total_size} is the frame length, and that every record and every
 * text slice lies inside the frame. A frame that passes can be read and rendered without any
 * access outside it; one that fails is a protocol error (CLI exit code 3).
 */
public final class CompletionValidator {
    public static final int VALID = 0;
    public static final int BAD_LENGTH = 1;
    public static final int BAD_HEADER = 2;
    public static final int BAD_KIND = 3;
    public static final int BAD_TOTAL_SIZE = 4;
    public static final int BAD_RECORDS = 5;
    public static final int BAD_TEXT = 6;

    private static final String[] REASONS = {
        "valid", "frame length does not fit the completion", "bad header (struct_size or api_version)",
        "unexpected message kind", "total_size differs from the frame length",
        "records lie outside the frame", "a text slice lies outside the text lane"};

    private final TargetFlyweight target = new TargetFlyweight();

    public static String reason(final int verdict) {
        return verdict >= 0 && verdict < REASONS.length ? REASONS[verdict] : "unknown";
    }

    /**
     * @param expectedKind the completion kind the request asks for, or 0 to accept any.
     * @return {@link #VALID} or the first failed check.
     */
    public int validate(final BytesStore<?, ?> frame, final long at, final long length, final int expectedKind) {
        if (length < HeaderFlyweight.LENGTH) {
            return BAD_LENGTH;
        }
        final long structSize = frame.readUnsignedInt(at + HeaderFlyweight.STRUCT_SIZE_OFFSET);
        final int kind = frame.readInt(at + HeaderFlyweight.MESSAGE_KIND_OFFSET);
        if (!AgentAbi.spoken(frame.readInt(at + HeaderFlyweight.API_VERSION_OFFSET))) {
            return BAD_HEADER;
        }
        if (expectedKind != 0 && kind != expectedKind) {
            return BAD_KIND;
        }
        switch (kind) {
            case AgentAbi.HELLO_COMPLETION:
                if (length != HelloCompletionFlyweight.LENGTH) {
                    return BAD_LENGTH;
                }
                return structSize == HelloCompletionFlyweight.LENGTH ? VALID : BAD_HEADER;
            case AgentAbi.OBSERVE_COMPLETION:
            case AgentAbi.QUERY_COMPLETION:
                return validateRead(frame, at, length, structSize);
            case AgentAbi.ACTION_COMPLETION:
                return validateAction(frame, at, length, structSize);
            default:
                return BAD_KIND;
        }
    }

    private int validateRead(final BytesStore<?, ?> frame, final long at, final long length, final long structSize) {
        if (length < CompletionFlyweight.LENGTH) {
            return BAD_LENGTH;
        }
        if (structSize != CompletionFlyweight.LENGTH) {
            return BAD_HEADER;
        }
        final long total = frame.readUnsignedInt(at + CompletionFlyweight.TOTAL_SIZE_OFFSET);
        if (total != length) {
            return BAD_TOTAL_SIZE;
        }
        final long count = frame.readUnsignedInt(at + CompletionFlyweight.TARGET_COUNT_OFFSET);
        final long stride = frame.readUnsignedInt(at + CompletionFlyweight.TARGET_STRIDE_OFFSET);
        final long offset = frame.readUnsignedInt(at + CompletionFlyweight.TARGETS_OFFSET_OFFSET);
        if (count == 0) {
            return VALID;
        }
        if (count > AgentAbi.MAX_TARGETS || stride < TargetFlyweight.LENGTH
            || offset < CompletionFlyweight.LENGTH || !Ranges.rangeValid(offset, count, stride, total)) {
            return BAD_RECORDS;
        }
        final long laneStart = offset + count * stride;
        for (long i = 0; i < count; i++) {
            target.wrap(frame, at + offset + i * stride);
            final long textSize = target.textSize();
            if (textSize == 0) {
                continue;
            }
            final long textOffset = target.textOffset();
            if (textOffset < laneStart || textOffset > total || textSize > total - textOffset) {
                return BAD_TEXT;
            }
        }
        return VALID;
    }

    private static int validateAction(
        final BytesStore<?, ?> frame, final long at, final long length, final long structSize) {
        if (length < ActionCompletionFlyweight.LENGTH) {
            return BAD_LENGTH;
        }
        if (structSize != ActionCompletionFlyweight.LENGTH) {
            return BAD_HEADER;
        }
        final long total = frame.readUnsignedInt(at + ActionCompletionFlyweight.TOTAL_SIZE_OFFSET);
        if (total != length) {
            return BAD_TOTAL_SIZE;
        }
        final long count = frame.readUnsignedInt(at + ActionCompletionFlyweight.ACTION_RESULT_COUNT_OFFSET);
        final long stride = frame.readUnsignedInt(at + ActionCompletionFlyweight.ACTION_RESULT_STRIDE_OFFSET);
        final long offset = frame.readUnsignedInt(at + ActionCompletionFlyweight.ACTION_RESULTS_OFFSET_OFFSET);
        if (count == 0) {
            return VALID;
        }
        if (count > AgentAbi.MAX_ACTIONS || stride < ActionResultFlyweight.LENGTH
            || offset < ActionCompletionFlyweight.LENGTH || !Ranges.rangeValid(offset, count, stride, total)) {
            return BAD_RECORDS;
        }
        return VALID;
    }
}
