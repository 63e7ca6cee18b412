package dev.saccade.cli;

import dev.saccade.owner.OwnerEndpoint;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real Saccade service on a real socket, in this JVM, assembled from owner-service's public
 * classes (its own test harness is not visible here): listener, acceptor thread, owner agent on
 * its runner thread, and a scene store the test publishes into. {@link #stop()} closes them in
 * reverse order.
 */
final class InProcessOwner {
    static final long ACTIVE_WINDOW = 7;
    static final long OTHER_WINDOW = 9;
    static final long DISPLAY = 1;

    // The dialog scene: a window with two buttons and a text field, a link in another window,
    // and a grid cell that belongs to no window.
    static final long DIALOG = 1001;
    static final long OK = 1002;
    static final long CANCEL = 1003;
    static final long FILE_NAME = 1004;
    static final long OK_LINK = 1005;
    static final long GRID_CELL = 1006;
    static final int DIALOG_TARGETS = 6;

    final SceneStore store;
    private final OwnerEndpoint endpoint;

    private InProcessOwner(final SceneStore store, final OwnerEndpoint endpoint) {
        this.store = store;
        this.endpoint = endpoint;
    }

    static InProcessOwner start(final Path socket) throws Exception {
        return start(socket, 8);
    }

    /** With {@code maxClients} connection slots. */
    static InProcessOwner start(final Path socket, final int maxClients) throws Exception {
        final SceneStore store = new SceneStore(4, 10_000, 1 << 20, SceneStore.seedGeneration(0));
        return new InProcessOwner(store, OwnerEndpoint.serve(socket, store, maxClients, Duration.ofSeconds(1)));
    }

    /** Publishes the dialog scene; returns its generation. Call from one thread at a time. */
    long publishDialog() {
        final ScenePacket p = store.claim();
        p.frame(1, System.nanoTime()).epochs(1, 1)
            .state(4242, ACTIVE_WINDOW, DISPLAY, 1, q8(100), q8(100), q8(400), q8(300));
        add(p, DIALOG, 0, ACTIVE_WINDOW, 100, 100, 400, 300, Role.WINDOW,
            TargetCapability.WINDOW_ACTIVATE | TargetCapability.POINTER_MOVE, SourceBit.ACCESSIBILITY, 0xFFFF,
            "Save changes?");
        add(p, OK, DIALOG, ACTIVE_WINDOW, 300, 350, 60, 30, Role.BUTTON,
            TargetCapability.CLICK | TargetCapability.INVOKE | TargetCapability.POINTER_MOVE,
            SourceBit.ACCESSIBILITY | SourceBit.PIXEL, 60_000, "OK");
        add(p, CANCEL, DIALOG, ACTIVE_WINDOW, 380, 350, 80, 30, Role.BUTTON,
            TargetCapability.CLICK | TargetCapability.INVOKE | TargetCapability.POINTER_MOVE,
            SourceBit.ACCESSIBILITY, 0xFFFF, "Cancel");
        add(p, FILE_NAME, DIALOG, ACTIVE_WINDOW, 120, 150, 300, 24, Role.TEXT_FIELD,
            TargetCapability.CLICK | TargetCapability.TEXT | TargetCapability.TEXT_SELECT | TargetCapability.KEYBOARD
                | TargetCapability.POINTER_MOVE,
            SourceBit.ACCESSIBILITY, 0xFFFF, "File name");
        add(p, OK_LINK, 0, OTHER_WINDOW, 700, 50, 80, 20, Role.LINK,
            TargetCapability.CLICK | TargetCapability.POINTER_MOVE, SourceBit.PIXEL | SourceBit.NEURAL, 20_000,
            "OK then");
        add(p, GRID_CELL, 0, 0, 0, 0, 64, 64, Role.UNKNOWN, TargetCapability.POINTER_MOVE, SourceBit.GRID, 0xFFFF,
            null);
        return store.publish(p);
    }

    private static void add(final ScenePacket p, final long id, final long parent, final long window,
        final int x, final int y, final int w, final int h, final int role, final int capabilities,
        final int sources, final int confidenceQ16, final String text) {
        final TargetFlyweight t = p.addTarget();
        t.targetId(id).parentId(parent).windowId(window).displayId(DISPLAY)
            .bounds(q8(x), q8(y), q8(w), q8(h))
            .safePoint(q8(x + w / 2), q8(y + h / 2))
            .capabilityBits(capabilities)
            .flags(TargetFlag.ACTIONABLE)
            .role(role)
            .sourceBits(sources)
            .confidenceQ16(confidenceQ16)
            .order(p.targetCount() - 1);
        if (text != null) {
            final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            p.text(t, utf8, 0, utf8.length);
        }
    }

    private static int q8(final int units) {
        return units * RectQ8.ONE;
    }

    /** Clients connected, as the owner thread last counted them. */
    int connectedClients() {
        return endpoint.agent().connectedClientsSeen();
    }

    void stop() throws Exception {
        try {
            endpoint.close();
        } finally {
            store.close();
        }
    }
}
