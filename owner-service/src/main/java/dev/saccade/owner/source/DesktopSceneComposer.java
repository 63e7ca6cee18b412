package dev.saccade.owner.source;

import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.owner.x11.DesktopSnapshot;
import dev.saccade.owner.x11.MonitorInfo;
import dev.saccade.owner.x11.WindowInfo;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * Builds each scene generation from a desktop snapshot: one WINDOW target per client window,
 * topmost first, with occlusion worked out from the stacking order, then the grid cells of
 * every display. Runs on the thread that delivers snapshots (the X11 reader's), never on the
 * owner thread.
 *
 * <p>Windows come from the window system's own records, the platform's semantic view, so they
 * carry the ACCESSIBILITY source bit; grid cells carry GRID and APPROXIMATE.
 */
public final class DesktopSceneComposer implements Consumer<DesktopSnapshot> {
    /** Input permission cannot be revoked on X11 by anyone but the X server going away. */
    public static final long X11_PERMISSION_EPOCH = 1;
    /** Confidence of records read from the window system: exact. */
    public static final int EXACT_CONFIDENCE_Q16 = 0xFFFF;
    /** Probe points per axis when the centre of a window is covered. */
    private static final int SAFE_POINT_PROBES = 9;

    private final SceneStore store;
    private final GridLayout grid;
    private volatile long lastGeneration;

    public DesktopSceneComposer(final SceneStore store, final GridLayout grid) {
        this.store = store;
        this.grid = grid;
    }

    /** The generation of the last scene this composer published (any thread). */
    public long lastGeneration() {
        return lastGeneration;
    }

    @Override
    public void accept(final DesktopSnapshot snapshot) {
        final ScenePacket p = store.claim();
        compose(snapshot, p);
        lastGeneration = store.publish(p);
    }

    void compose(final DesktopSnapshot snapshot, final ScenePacket p) {
        final List<WindowInfo> windows = snapshot.windows();
        final List<MonitorInfo> monitors = snapshot.monitors();
        // On X11 the desktop-to-screen transform is the identity and changes only with the layout.
        p.frame(snapshot.sequence(), snapshot.captureTimeNs())
            .epochs(snapshot.topologyEpoch(), snapshot.topologyEpoch());

        final WindowInfo active = snapshot.window(snapshot.activeWindow());
        if (active != null) {
            p.state(active.pid(), active.xid(), displayOf(monitors, active), X11_PERMISSION_EPOCH,
                q8(active.x()), q8(active.y()), q8(active.width()), q8(active.height()));
        } else {
            final MonitorInfo primary = snapshot.primaryMonitor();
            p.state(0, 0, primary == null ? 0 : primary.id(), X11_PERMISSION_EPOCH, 0, 0, 0, 0);
        }

        int order = 0;
        final int[] safe = new int[2];
        for (int i = windows.size() - 1; i >= 0; i--) {
            final WindowInfo w = windows.get(i);
            final TargetFlyweight t = p.addTarget();
            if (t == null) {
                return; // packet full: marked incomplete
            }
            final boolean visible = w.viewable() && !w.hidden() && w.width() > 0 && w.height() > 0
                && safePoint(windows, i, safe);
            int flags = visible ? TargetFlag.ACTIONABLE : TargetFlag.OCCLUDED;
            if (!visible) {
                safe[0] = w.x() + w.width() / 2;
                safe[1] = w.y() + w.height() / 2;
            }
            t.targetId(TargetIds.window(w.xid()))
                .windowId(w.xid())
                .displayId(displayOf(monitors, w))
                .bounds(q8(w.x()), q8(w.y()), q8(w.width()), q8(w.height()))
                .safePoint(q8(safe[0]) + RectQ8.ONE / 2, q8(safe[1]) + RectQ8.ONE / 2)
                .capabilityBits(TargetCapability.WINDOW_ACTIVATE)
                .flags(flags)
                .role(Role.WINDOW)
                .sourceBits(SourceBit.ACCESSIBILITY)
                .confidenceQ16(EXACT_CONFIDENCE_Q16)
                .order(order++);
            final byte[] title = w.title().getBytes(StandardCharsets.UTF_8);
            p.text(t, title, 0, title.length);
        }

        for (int m = 0; m < monitors.size(); m++) {
            order = addGrid(p, monitors.get(m), order);
            if (order < 0) {
                return;
            }
        }
    }

    private int addGrid(final ScenePacket p, final MonitorInfo monitor, final int firstOrder) {
        int order = firstOrder;
        final int rows = grid.rows();
        final int columns = grid.columns();
        for (int r = 0; r < rows; r++) {
            final int y0 = monitor.y() + (int) ((long) monitor.height() * r / rows);
            final int y1 = monitor.y() + (int) ((long) monitor.height() * (r + 1) / rows);
            for (int c = 0; c < columns; c++) {
                final int x0 = monitor.x() + (int) ((long) monitor.width() * c / columns);
                final int x1 = monitor.x() + (int) ((long) monitor.width() * (c + 1) / columns);
                final TargetFlyweight t = p.addTarget();
                if (t == null) {
                    return -1;
                }
                t.targetId(TargetIds.gridCell(monitor.id(), r, c))
                    .displayId(monitor.id())
                    .bounds(q8(x0), q8(y0), q8(x1 - x0), q8(y1 - y0))
                    .safePoint(q8(x0 + x1) / 2, q8(y0 + y1) / 2)
                    .capabilityBits(TargetCapability.POINTER_MOVE | TargetCapability.CLICK | TargetCapability.SCROLL)
                    .flags(TargetFlag.ACTIONABLE | TargetFlag.APPROXIMATE)
                    .role(Role.UNKNOWN)
                    .sourceBits(SourceBit.GRID)
                    .confidenceQ16(EXACT_CONFIDENCE_Q16)
                    .order(order++);
                final byte[] label = grid.label(r, c);
                p.text(t, label, 0, label.length);
            }
        }
        return order;
    }

    /**
     * A point of window {@code index} that no window above it covers: the centre if free, else
     * the first free point of a {@value #SAFE_POINT_PROBES}² lattice. False if every probe is
     * covered (the window is treated as occluded).
     */
    static boolean safePoint(final List<WindowInfo> windows, final int index, final int[] out) {
        final WindowInfo w = windows.get(index);
        final int cx = w.x() + w.width() / 2;
        final int cy = w.y() + w.height() / 2;
        if (!covered(windows, index, cx, cy)) {
            out[0] = cx;
            out[1] = cy;
            return true;
        }
        for (int i = 0; i < SAFE_POINT_PROBES; i++) {
            for (int j = 0; j < SAFE_POINT_PROBES; j++) {
                final int px = w.x() + (int) ((2L * j + 1) * w.width() / (2 * SAFE_POINT_PROBES));
                final int py = w.y() + (int) ((2L * i + 1) * w.height() / (2 * SAFE_POINT_PROBES));
                if (!covered(windows, index, px, py)) {
                    out[0] = px;
                    out[1] = py;
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean covered(final List<WindowInfo> windows, final int index, final int px, final int py) {
        for (int above = index + 1; above < windows.size(); above++) {
            final WindowInfo o = windows.get(above);
            if (o.viewable() && !o.hidden()
                && px >= o.x() && px < o.x() + o.width() && py >= o.y() && py < o.y() + o.height()) {
                return true;
            }
        }
        return false;
    }

    /** The monitor holding the window's centre, else the primary; 0 when there are none. */
    static long displayOf(final List<MonitorInfo> monitors, final WindowInfo w) {
        final long cx = w.x() + w.width() / 2L;
        final long cy = w.y() + w.height() / 2L;
        MonitorInfo fallback = null;
        for (int i = 0; i < monitors.size(); i++) {
            final MonitorInfo m = monitors.get(i);
            if (cx >= m.x() && cx < (long) m.x() + m.width() && cy >= m.y() && cy < (long) m.y() + m.height()) {
                return m.id();
            }
            if (fallback == null || m.primary()) {
                fallback = m;
            }
        }
        return fallback == null ? 0 : fallback.id();
    }

    private static int q8(final int pixels) {
        return pixels * RectQ8.ONE;
    }
}
