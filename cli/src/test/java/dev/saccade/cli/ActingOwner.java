package dev.saccade.cli;

import dev.saccade.owner.AgentService;
import dev.saccade.owner.OwnerEndpoint;
import dev.saccade.owner.RecordingExecutor;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real Saccade service on a real socket, in this JVM, whose action planner hands its plans to
 * a {@link RecordingExecutor} instead of an input helper. Its scene is the dialog window of
 * {@link InProcessOwner} reduced to what actions need (same ids): the window, the OK button
 * (click, invoke, scroll, drag source) and the file-name field (text, text select, drop
 * target).
 */
final class ActingOwner {
    final SceneStore store;
    final RecordingExecutor executor;
    private final OwnerEndpoint endpoint;

    private ActingOwner(final SceneStore store, final RecordingExecutor executor, final OwnerEndpoint endpoint) {
        this.store = store;
        this.executor = executor;
        this.endpoint = endpoint;
    }

    static ActingOwner start(final Path socket) throws Exception {
        final SceneStore store = new SceneStore(4, 1_000, 1 << 16, SceneStore.seedGeneration(0));
        final RecordingExecutor executor = RecordingExecutor.followingItsInput();
        return new ActingOwner(store, executor, OwnerEndpoint.serve(socket, store, 8, Duration.ofSeconds(1),
            new AgentService(store, executor, null)));
    }

    /** Publishes the scene; returns its generation. Call from one thread at a time. */
    long publish() {
        final ScenePacket p = store.claim();
        p.frame(1, System.nanoTime()).epochs(1, 1)
            .state(4242, InProcessOwner.ACTIVE_WINDOW, InProcessOwner.DISPLAY, 1, q8(100), q8(100), q8(400), q8(300));
        add(p, InProcessOwner.DIALOG, 0, 100, 100, 400, 300, Role.WINDOW,
            TargetCapability.WINDOW_ACTIVATE | TargetCapability.POINTER_MOVE);
        add(p, InProcessOwner.OK, InProcessOwner.DIALOG, 300, 350, 60, 30, Role.BUTTON,
            TargetCapability.CLICK | TargetCapability.INVOKE | TargetCapability.POINTER_MOVE | TargetCapability.SCROLL
                | TargetCapability.DRAG_SOURCE);
        add(p, InProcessOwner.FILE_NAME, InProcessOwner.DIALOG, 120, 150, 300, 24, Role.TEXT_FIELD,
            TargetCapability.CLICK | TargetCapability.TEXT | TargetCapability.TEXT_SELECT
                | TargetCapability.DROP_TARGET | TargetCapability.POINTER_MOVE | TargetCapability.KEYBOARD);
        return store.publish(p);
    }

    /**
     * The same dialog under another window, "Save As" ({@link InProcessOwner#OTHER_WINDOW}, topmost),
     * which covers the OK button (OCCLUDED, not ACTIONABLE); the file-name field is DISABLED.
     */
    long publishCovered() {
        final ScenePacket p = store.claim();
        p.frame(1, System.nanoTime()).epochs(1, 1)
            .state(4242, InProcessOwner.ACTIVE_WINDOW, InProcessOwner.DISPLAY, 1, q8(100), q8(100), q8(400), q8(300));
        final byte[] title = "Save As".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        p.text(add(p, InProcessOwner.OTHER_WINDOW, InProcessOwner.OTHER_WINDOW, 0, 250, 400, 200, Role.WINDOW,
            TargetCapability.WINDOW_ACTIVATE | TargetCapability.POINTER_MOVE, TargetFlag.ACTIONABLE), title, 0, title.length);
        add(p, InProcessOwner.DIALOG, InProcessOwner.ACTIVE_WINDOW, 100, 100, 400, 300, Role.WINDOW,
            TargetCapability.WINDOW_ACTIVATE | TargetCapability.POINTER_MOVE, TargetFlag.ACTIONABLE);
        add(p, InProcessOwner.OK, InProcessOwner.ACTIVE_WINDOW, 300, 350, 60, 30, Role.BUTTON,
            TargetCapability.CLICK | TargetCapability.INVOKE | TargetCapability.POINTER_MOVE, TargetFlag.OCCLUDED);
        add(p, InProcessOwner.FILE_NAME, InProcessOwner.ACTIVE_WINDOW, 120, 150, 300, 24, Role.TEXT_FIELD,
            TargetCapability.CLICK | TargetCapability.TEXT | TargetCapability.POINTER_MOVE,
            TargetFlag.ACTIONABLE | TargetFlag.DISABLED);
        return store.publish(p);
    }

    private static TargetFlyweight add(final ScenePacket p, final long id, final long window, final int x, final int y,
        final int w, final int h, final int role, final int capabilities, final int flags) {
        return add(p, id, 0, x, y, w, h, role, capabilities).windowId(window).flags(flags);
    }

    private static TargetFlyweight add(final ScenePacket p, final long id, final long parent, final int x, final int y,
        final int w, final int h, final int role, final int capabilities) {
        final TargetFlyweight t = p.addTarget();
        t.targetId(id).parentId(parent).windowId(InProcessOwner.ACTIVE_WINDOW).displayId(InProcessOwner.DISPLAY)
            .bounds(q8(x), q8(y), q8(w), q8(h))
            .safePoint(q8(x + w / 2), q8(y + h / 2))
            .capabilityBits(capabilities)
            .flags(TargetFlag.ACTIONABLE)
            .role(role)
            .sourceBits(SourceBit.ACCESSIBILITY)
            .confidenceQ16(0xFFFF)
            .order(p.targetCount() - 1);
        return t;
    }

    static int q8(final int units) {
        return units * RectQ8.ONE;
    }

    void stop() throws Exception {
        try {
            endpoint.close();
        } finally {
            store.close();
        }
    }
}
