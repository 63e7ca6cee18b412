package dev.saccade.owner.source;

import dev.saccade.desktop.TargetIds;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.charset.StandardCharsets;

/**
 * A generated scene of a chosen size, for benchmarks and load tests that need the largest scenes
 * the ABI allows (10,000 targets, about 1 MiB on the wire) without a desktop that big. Targets
 * tile a 1920 × 1080 desktop; window 1 is active and holds the first {@code activeTargets}.
 */
public final class SyntheticScene {
    public static final long WINDOW_ID = 1;
    public static final long DISPLAY_ID = 1;

    private SyntheticScene() {
    }

    /**
     * Publishes one scene.
     *
     * @param textBytes text per target (ASCII, padded), so 168 + n × (88 + textBytes) is the
     *     observe size.
     * @return its generation.
     */
    public static long publish(final SceneStore store, final int targets, final int textBytes, final int activeTargets) {
        final ScenePacket p = store.claim();
        p.frame(1, System.nanoTime()).epochs(1, 1)
            .state(4242, WINDOW_ID, DISPLAY_ID, 1, 0, 0, 960 * RectQ8.ONE, 540 * RectQ8.ONE);
        final byte[] text = new byte[textBytes];
        for (int i = 0; i < targets; i++) {
            final TargetFlyweight t = p.addTarget();
            if (t == null) {
                break;
            }
            final int x = (i % 100) * 19;
            final int y = (i / 100) * 10;
            final boolean active = i < activeTargets;
            t.targetId(TargetIds.ACCESSIBILITY_NAMESPACE | (i + 1))
                .windowId(active ? WINDOW_ID : 2)
                .displayId(DISPLAY_ID)
                .bounds(x * RectQ8.ONE, y * RectQ8.ONE, 18 * RectQ8.ONE, 9 * RectQ8.ONE)
                .safePoint(x * RectQ8.ONE + 9 * RectQ8.ONE, y * RectQ8.ONE + 4 * RectQ8.ONE)
                .capabilityBits(TargetCapability.CLICK | TargetCapability.POINTER_MOVE | TargetCapability.INVOKE)
                .flags(TargetFlag.ACTIONABLE)
                .role(i % 3 == 0 ? Role.BUTTON : Role.TEXT)
                .sourceBits(SourceBit.ACCESSIBILITY | SourceBit.PIXEL)
                .confidenceQ16(0xFFFF)
                .order(i);
            if (textBytes > 0) {
                final byte[] label = ("target " + i).getBytes(StandardCharsets.US_ASCII);
                java.util.Arrays.fill(text, (byte) '.');
                System.arraycopy(label, 0, text, 0, Math.min(label.length, textBytes));
                p.text(t, text, 0, textBytes);
            }
        }
        return store.publish(p);
    }
}
