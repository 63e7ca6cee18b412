package dev.saccade.owner.scene;

import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * One named window of a scene, the exact-window scope of API 0x00010002 (§5.3, §5.14): whether
 * the scene still has it and which process owns it, and the disposition of each of its targets —
 * whether an action reaches it without raising the window. Stateless, no allocation.
 */
public final class WindowScope {
    /** Target capabilities that need input at coordinates, so a window in front. */
    private static final int COORDINATE_CAPABILITIES = TargetCapability.POINTER_MOVE | TargetCapability.CLICK
        | TargetCapability.SCROLL | TargetCapability.DRAG_SOURCE | TargetCapability.DROP_TARGET
        | TargetCapability.TEXT | TargetCapability.TEXT_SELECT | TargetCapability.WINDOW_ACTIVATE;

    private WindowScope() {
    }

    /** The record index of window {@code windowId}'s own target in {@code scene}, or -1 when it is gone. */
    public static int windowIndex(final ScenePacket scene, final long windowId) {
        return windowId == 0 ? -1 : scene.indexOf(TargetIds.window(windowId));
    }

    /** The process that owns the window whose target is at {@code index} (its window facts), 0 when unknown. */
    public static long processId(final ScenePacket scene, final int index) {
        return TargetState.processId(scene.bytes().readInt(scene.recordAt(index) + TargetFlyweight.STATES_OFFSET));
    }

    /** The offset of the bounds of the window whose target is at {@code index}, in {@link ScenePacket#bytes()}. */
    public static long boundsAt(final ScenePacket scene, final int index) {
        return scene.recordAt(index) + TargetFlyweight.BOUNDS_OFFSET;
    }

    /**
     * Whether an action reaches the target without its window in front: an accessible object
     * with a default action (INVOKE, and a plain left click, go to that action), or an editable
     * one when the connection has SET_VALUE (D25).
     */
    public static boolean backgroundCapable(final int sourceBits, final int capabilities, final int helloFlags) {
        return (sourceBits & SourceBit.ACCESSIBILITY) != 0
            && ((capabilities & TargetCapability.INVOKE) != 0
                || ((helloFlags & HelloFlag.SEMANTIC_ACTIONS) != 0 && (capabilities & TargetCapability.TEXT) != 0));
    }

    /**
     * The flags a target has for an action that does not need its window in front: a target is
     * OCCLUDED, and so not ACTIONABLE, when windows above cover it, which is what a background
     * window's targets are (D41).
     */
    public static int behindFlags(final int flags) {
        return (flags & TargetFlag.OCCLUDED) != 0 ? (flags & ~TargetFlag.OCCLUDED) | TargetFlag.ACTIONABLE : flags;
    }

    /** The one disposition of a target (§5.3): a {@link TargetFlag} bit. */
    public static int disposition(final int sceneFlags, final int capabilities, final int sourceBits, final int role,
        final int helloFlags) {
        final int flags = behindFlags(sceneFlags);
        if ((flags & (TargetFlag.SECURE | TargetFlag.DISABLED)) != 0 || (flags & TargetFlag.ACTIONABLE) == 0) {
            return TargetFlag.BACKGROUND_UNSUPPORTED;
        }
        if (role != Role.WINDOW && backgroundCapable(sourceBits, capabilities, helloFlags)) {
            return TargetFlag.BACKGROUND_ACTIONABLE;
        }
        return (capabilities & COORDINATE_CAPABILITIES) != 0
            ? TargetFlag.ACTIVATION_REQUIRED : TargetFlag.BACKGROUND_UNSUPPORTED;
    }

    /** Sets the disposition of each of {@code count} records written at {@code recordsAt}, {@code stride} apart. */
    public static void stampDispositions(final BytesStore<?, ?> resp, final long recordsAt, final long count,
        final long stride, final int helloFlags) {
        for (long i = 0; i < count; i++) {
            final long out = recordsAt + i * stride;
            final int flags = resp.readInt(out + TargetFlyweight.FLAGS_OFFSET) & ~TargetFlag.DISPOSITIONS;
            final int disposition = disposition(flags, resp.readInt(out + TargetFlyweight.CAPABILITY_BITS_OFFSET),
                resp.readUnsignedShort(out + TargetFlyweight.SOURCE_BITS_OFFSET),
                resp.readUnsignedShort(out + TargetFlyweight.ROLE_OFFSET), helloFlags);
            resp.writeInt(out + TargetFlyweight.FLAGS_OFFSET, flags | disposition);
        }
    }
}
