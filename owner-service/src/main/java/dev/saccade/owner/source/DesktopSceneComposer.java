package dev.saccade.owner.source;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.TargetIds;
import dev.saccade.desktop.WindowAttribution;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.pixel.PixelSnapshot;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Builds each scene generation from the latest desktop snapshot (X11) and the latest
 * accessibility snapshot (AT-SPI2): one WINDOW target per client window, topmost first, with
 * occlusion worked out from the stacking order; then every accessible object, linked to the
 * window of its frame and occluded where a window above covers it; then the grid cells of every
 * display.
 * Runs on the threads that deliver snapshots (the X11 reader's and the AT-SPI source's), one
 * at a time, never on the owner thread.
 *
 * <p>Windows and accessible objects come from the platform's semantic view and carry the
 * ACCESSIBILITY source bit; grid cells carry GRID and APPROXIMATE.
 */
public final class DesktopSceneComposer implements Consumer<DesktopSnapshot> {
    /** Input permission cannot be revoked on X11 by anyone but the X server going away. */
    public static final long X11_PERMISSION_EPOCH = 1;
    /** Confidence of records read from the window system: exact. */
    public static final int EXACT_CONFIDENCE_Q16 = 0xFFFF;
    /** How far a frame's bounds may lie from its window's and still count as the same (§5.3). */
    static final int FRAME_SLACK_PX = 8;
    /** Probe points per axis when the centre of a window is covered. */
    private static final int SAFE_POINT_PROBES = 9;

    private final SceneStore store;
    private final GridLayout grid;
    private volatile long lastGeneration;
    /** GTK 4 popovers seen open, to leave them out once closed (D70); under this composer's lock. */
    private final PopoverRoots popoverRoots = new PopoverRoots();
    /** Guarded by this: the inputs of the next composition. */
    private DesktopSnapshot desktop;
    private AccessibilitySnapshot accessibility;
    private PixelSnapshot pixels;

    public DesktopSceneComposer(final SceneStore store, final GridLayout grid) {
        this.store = store;
        this.grid = grid;
    }

    /** The generation of the last scene this composer published (any thread). */
    public long lastGeneration() {
        return lastGeneration;
    }

    /** A new desktop snapshot: recompose with the latest accessibility snapshot. */
    @Override
    public synchronized void accept(final DesktopSnapshot snapshot) {
        desktop = snapshot;
        publish();
    }

    /**
     * A new accessibility snapshot: recompose with the latest desktop snapshot (nothing is
     * published before the first desktop snapshot: without windows there is no state).
     */
    public synchronized void acceptAccessibility(final AccessibilitySnapshot snapshot) {
        accessibility = snapshot;
        if (desktop != null) {
            publish();
        }
    }

    /** A new pixel reading (PIXEL targets): recompose with the latest other inputs. */
    public synchronized void acceptPixels(final PixelSnapshot snapshot) {
        pixels = snapshot;
        if (desktop != null) {
            publish();
        }
    }

    /** Called holding this lock: the scene store takes one producer at a time. */
    private void publish() {
        final ScenePacket p = store.claim();
        compose(desktop, accessibility, pixels, p);
        lastGeneration = store.publish(p);
    }

    void compose(final DesktopSnapshot snapshot, final ScenePacket p) {
        compose(snapshot, null, p);
    }

    void compose(final DesktopSnapshot snapshot, final AccessibilitySnapshot semantic, final ScenePacket p) {
        compose(snapshot, semantic, null, p);
    }

    void compose(final DesktopSnapshot snapshot, final AccessibilitySnapshot reported, final PixelSnapshot pixelReading,
        final ScenePacket p) {
        final AccessibilitySnapshot semantic = ClientRelativeExtents.translate(reported, snapshot, popoverRoots);
        final List<WindowInfo> windows = snapshot.windows();
        final List<MonitorInfo> monitors = snapshot.monitors();
        // On X11 the desktop-to-screen transform is the identity and changes only with the layout.
        // capture time: the earliest of the inputs, so no part of the scene is older than it says
        final long captureNs = semantic == null || semantic.captureNs() - snapshot.captureTimeNs() > 0
            ? snapshot.captureTimeNs() : semantic.captureNs();
        p.frame(snapshot.sequence(), captureNs)
            .epochs(snapshot.topologyEpoch(), snapshot.topologyEpoch());
        if (semantic != null && semantic.incomplete()) {
            p.markIncomplete(); // a budget, a deadline or a failing application bounded the tree
        }

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
            if (snapshot.approximateWindows().contains(w.xid())) {
                flags |= TargetFlag.APPROXIMATE; // bounds of its output: no geometry (docs/wayland.md §1)
            }
            if (!visible) {
                safe[0] = w.x() + w.width() / 2;
                safe[1] = w.y() + w.height() / 2;
            }
            t.targetId(TargetIds.window(w.xid()))
                .windowId(w.xid())
                .displayId(displayOf(monitors, w))
                .bounds(q8(w.x()), q8(w.y()), q8(w.width()), q8(w.height()))
                .safePoint(q8(safe[0]) + RectQ8.ONE / 2, q8(safe[1]) + RectQ8.ONE / 2)
                .capabilityBits(visible && w.xid() == snapshot.activeWindow() && !hasTree(semantic, w)
                    ? TargetCapability.WINDOW_ACTIVATE | TargetCapability.TEXT | TargetCapability.KEYBOARD
                    : TargetCapability.WINDOW_ACTIVATE)
                .flags(flags)
                .role(Role.WINDOW)
                .sourceBits(SourceBit.ACCESSIBILITY)
                .confidenceQ16(EXACT_CONFIDENCE_Q16)
                .order(order++)
                .states(TargetState.windowFacts(w.hidden(), w.pid())); // sent only under WINDOW_FACTS (§2)
            final byte[] title = w.title().getBytes(StandardCharsets.UTF_8);
            p.text(t, title, 0, title.length);
        }

        final java.util.Set<Long> replaced = PixelTargets.newReplacedSet();
        final boolean[] alsoPixel = PixelTargets.confirmed(windows, semantic, pixelReading, replaced);
        if (semantic != null) {
            order = addAccessible(p, windows, monitors, semantic, alsoPixel, order, safe);
            if (order < 0) {
                return;
            }
        }
        if (pixelReading != null) {
            order = PixelTargets.add(p, windows, monitors, pixelReading, replaced, order, safe);
            if (order < 0) {
                return;
            }
        }

        for (int m = 0; m < monitors.size(); m++) {
            order = addGrid(p, monitors.get(m), order);
            if (order < 0) {
                return;
            }
        }
    }

    /**
     * Whether the window's process has an accessible tree with an actionable object. The active
     * window of one that has none (xterm, Xt and Tk apps; a tree of only a disabled frame) has
     * the keyboard focus and nothing else to aim keys at: its target takes TEXT and KEY (D52).
     */
    static boolean hasTree(final AccessibilitySnapshot semantic, final WindowInfo w) {
        if (semantic == null || w.pid() == 0) {
            return false;
        }
        for (final var app : semantic.applications()) {
            if (app.pid() == w.pid() && app.nodes().stream().anyMatch(AccessibilityNode::actionable)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The accessible objects, in each application's document order. Each belongs to the window of
     * its top-level accessible object, its frame ({@link #frameWindow}); its frame's children are
     * parented to that window's target, and it is OCCLUDED (not ACTIONABLE) when windows above
     * cover every probe point of its bounds.
     */
    private static int addAccessible(final ScenePacket p, final List<WindowInfo> windows,
        final List<MonitorInfo> monitors, final AccessibilitySnapshot semantic, final boolean[] alsoPixel,
        final int firstOrder, final int[] safe) {
        int order = firstOrder;
        final int[] visible = new int[4];
        final List<AccessibilityNode> nodes = semantic.nodes();
        // Parents come before their children (document order): each object takes its parent's window.
        final Map<Long, Integer> windowByNode = new HashMap<>(nodes.size() * 2);
        for (int n = 0; n < nodes.size(); n++) {
            final AccessibilityNode node = nodes.get(n);
            final Integer parentWindow = node.parentId() == 0 ? null : windowByNode.get(node.parentId());
            final int window = parentWindow != null ? parentWindow
                : node.parentId() == 0 ? frameWindow(windows, node) : WindowAttribution.windowOf(windows, node);
            windowByNode.put(node.targetId(), window);
            int flags = node.flags();
            // only the part on a monitor can be pointed at: none at all (a popup's extents below
            // the screen) and the target is OCCLUDED, so actions on it are refused (§5.8 rule F)
            final boolean sized = node.width() > 0 && node.height() > 0
                && onMonitor(monitors, node.x(), node.y(), node.width(), node.height(), visible);
            if (sized && window >= 0 && safePoint(windows, window, visible[0], visible[1], visible[2], visible[3], safe)) {
                // visible through the stack: keep its own flags
            } else if (sized && window < 0) {
                safe[0] = visible[0] + visible[2] / 2;
                safe[1] = visible[1] + visible[3] / 2;
            } else {
                flags = (flags | TargetFlag.OCCLUDED) & ~TargetFlag.ACTIONABLE;
                safe[0] = node.x() + node.width() / 2;
                safe[1] = node.y() + node.height() / 2;
            }
            final TargetFlyweight t = p.addTarget();
            if (t == null) {
                return -1;
            }
            final long xid = window >= 0 ? windows.get(window).xid() : 0;
            t.targetId(node.targetId())
                .parentId(node.parentId() != 0 ? node.parentId() : (xid != 0 ? TargetIds.window(xid) : 0))
                .windowId(xid)
                .displayId(displayAt(monitors, node.x() + node.width() / 2L, node.y() + node.height() / 2L))
                .bounds(q8(node.x()), q8(node.y()), q8(node.width()), q8(node.height()))
                .safePoint(q8(safe[0]) + RectQ8.ONE / 2, q8(safe[1]) + RectQ8.ONE / 2)
                .capabilityBits(node.capabilities())
                .flags(flags)
                .role(node.role())
                .sourceBits(alsoPixel != null && alsoPixel[n] ? SourceBit.ACCESSIBILITY | SourceBit.PIXEL : SourceBit.ACCESSIBILITY)
                .confidenceQ16(EXACT_CONFIDENCE_Q16)
                .order(order++)
                .states(node.states());
            if (!node.hasFlag(TargetFlag.TEXT_REDACTED)) {
                final byte[] text = node.text().getBytes(StandardCharsets.UTF_8);
                p.text(t, text, 0, text.length);
            }
        }
        return order;
    }

    /**
     * Stacking index of the window of a top-level accessible object (a frame or dialog): among the
     * windows of its application's pid the one that matches it best, by title (its accessible name
     * is the window title) and by bounds (within {@value #FRAME_SLACK_PX} px on every edge); where
     * those tie, the window holding its centre, then the topmost. Windows of other processes never
     * match; without any window of its pid (or without a pid) {@link WindowAttribution#windowOf} decides by position.
     */
    static int frameWindow(final List<WindowInfo> windows, final AccessibilityNode frame) {
        if (frame.pid() == 0) {
            return WindowAttribution.windowOf(windows, frame);
        }
        final int cx = frame.x() + frame.width() / 2;
        final int cy = frame.y() + frame.height() / 2;
        int best = -1;
        int bestScore = -1;
        for (int i = windows.size() - 1; i >= 0; i--) {
            final WindowInfo w = windows.get(i);
            if (w.pid() != frame.pid()) {
                continue;
            }
            int score = 0;
            if (!frame.name().isEmpty() && frame.name().equals(w.title())) {
                score += 4;
            }
            if (frame.width() > 0 && Math.abs(frame.x() - w.x()) <= FRAME_SLACK_PX
                && Math.abs(frame.y() - w.y()) <= FRAME_SLACK_PX && Math.abs(frame.width() - w.width()) <= FRAME_SLACK_PX
                && Math.abs(frame.height() - w.height()) <= FRAME_SLACK_PX) {
                score += 2;
            }
            if (cx >= w.x() && cx < w.x() + w.width() && cy >= w.y() && cy < w.y() + w.height()) {
                score += 1;
            }
            if (score > bestScore) { // from the top down: a tie stays with the window above
                best = i;
                bestScore = score;
            }
        }
        return best >= 0 ? best : WindowAttribution.windowOf(windows, frame);
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
                    // raw pointer regions: a drag may start and end on any of them (a slider, a window, a file)
                    .capabilityBits(TargetCapability.POINTER_MOVE | TargetCapability.CLICK | TargetCapability.SCROLL
                        | TargetCapability.DRAG_SOURCE | TargetCapability.DROP_TARGET)
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
        return safePoint(windows, index, w.x(), w.y(), w.width(), w.height(), out);
    }

    /** As above for any rect of (or inside) window {@code index}: only windows above it cover. */
    static boolean safePoint(final List<WindowInfo> windows, final int index,
        final int x, final int y, final int width, final int height, final int[] out) {
        final int cx = x + width / 2;
        final int cy = y + height / 2;
        if (!covered(windows, index, cx, cy)) {
            out[0] = cx;
            out[1] = cy;
            return true;
        }
        for (int i = 0; i < SAFE_POINT_PROBES; i++) {
            for (int j = 0; j < SAFE_POINT_PROBES; j++) {
                final int px = x + (int) ((2L * j + 1) * width / (2 * SAFE_POINT_PROBES));
                final int py = y + (int) ((2L * i + 1) * height / (2 * SAFE_POINT_PROBES));
                if (!covered(windows, index, px, py)) {
                    out[0] = px;
                    out[1] = py;
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the rect meets a monitor; if so {@code out} is its part on the first monitor it
     * meets (x, y, width, height). Without monitors (none reported) the whole rect counts.
     */
    static boolean onMonitor(final List<MonitorInfo> monitors, final int x, final int y, final int width,
        final int height, final int[] out) {
        if (monitors.isEmpty()) {
            out[0] = x;
            out[1] = y;
            out[2] = width;
            out[3] = height;
            return true;
        }
        for (int i = 0; i < monitors.size(); i++) {
            final MonitorInfo m = monitors.get(i);
            final long left = Math.max(x, m.x());
            final long top = Math.max(y, m.y());
            final long right = Math.min((long) x + width, (long) m.x() + m.width());
            final long bottom = Math.min((long) y + height, (long) m.y() + m.height());
            if (right > left && bottom > top) {
                out[0] = (int) left;
                out[1] = (int) top;
                out[2] = (int) (right - left);
                out[3] = (int) (bottom - top);
                return true;
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
        return displayAt(monitors, w.x() + w.width() / 2L, w.y() + w.height() / 2L);
    }

    /** The monitor holding the point, else the primary; 0 when there are none. */
    static long displayAt(final List<MonitorInfo> monitors, final long cx, final long cy) {
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
