package dev.saccade.client;

import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.charset.StandardCharsets;

/** The text of an observe or query completion's targets, read from its text lane (agent-abi §5.5). */
public final class TargetTexts {
    private TargetTexts() {
    }

    /** The text of target {@code index} of {@code completion}, decoded as UTF-8; {@code target} is the view reused. */
    public static String of(final CompletionFlyweight completion, final int index, final TargetFlyweight target) {
        target.wrap(completion.bytes(), completion.offset() + completion.targetsOffset()
            + (long) index * completion.targetStride());
        final byte[] text = new byte[(int) target.textSize()];
        completion.bytes().read(completion.offset() + target.textOffset(), text, 0, text.length);
        return new String(text, StandardCharsets.UTF_8);
    }
}
