package dev.saccade.owner;

import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Fixture F of spec §6: scene 42, frame 43, capture 49, transform 46, topology 47, incomplete,
 * T11 "Button" and T12 "Cancel"; state process 700, window 7, display 8, bounds
 * (10,20,1000,800), permission epoch 9. Values are used as given (already Q8).
 */
final class FixtureF {
    static final long SCENE = 42;

    private FixtureF() {
    }

    /** A store whose next publication is generation 42. */
    static SceneStore store() {
        return new SceneStore(4, 10_000, 1 << 20, SCENE - 1);
    }

    static long publish(final SceneStore store) {
        return publish(store, t -> { }, p -> { });
    }

    /**
     * @param t12 changes applied to T12's record before publication.
     * @param packet changes applied to the whole packet last.
     */
    static long publish(final SceneStore store, final Consumer<TargetFlyweight> t12, final Consumer<ScenePacket> packet) {
        final ScenePacket p = store.claim();
        p.frame(43, 49).epochs(46, 47).markIncomplete()
            .state(700, 7, 8, 9, 10, 20, 1000, 800);
        final byte[] button = "Button".getBytes(StandardCharsets.UTF_8);
        final byte[] cancel = "Cancel".getBytes(StandardCharsets.UTF_8);
        final TargetFlyweight t = p.addTarget();
        t.targetId(11).windowId(7).displayId(8).bounds(100, 200, 300, 400).safePoint(250, 300)
            .confidenceQ16(65000).role(Role.BUTTON).sourceBits(SourceBit.NEURAL).capabilityBits(0x143)
            .flags(TargetFlag.ACTIONABLE);
        p.text(t, button, 0, button.length);
        final TargetFlyweight u = p.addTarget();
        u.targetId(12).windowId(0).displayId(0).bounds(100, 200, 300, 400).safePoint(250, 300)
            .confidenceQ16(65000).role(Role.LINK).sourceBits(SourceBit.NEURAL).capabilityBits(0x143)
            .flags(TargetFlag.ACTIONABLE).order(1);
        p.text(u, cancel, 0, cancel.length);
        t12.accept(u);
        packet.accept(p);
        return store.publish(p);
    }
}
