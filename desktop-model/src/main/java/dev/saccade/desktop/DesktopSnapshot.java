package dev.saccade.desktop;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the X server showed at one moment: the client windows in stacking order, the active
 * window and the monitors. Immutable; built on the reader thread and handed to the listener,
 * which may keep it and pass it to any thread.
 */
public final class DesktopSnapshot {
    private final long sequence;
    private final long captureTimeNs;
    private final long activeWindow;
    private final List<WindowInfo> windows;
    private final List<MonitorInfo> monitors;
    private final long topologyEpoch;
    /** Windows whose accessible extents are relative to the window (Wayland-native clients). */
    private final Set<Long> clientRelativeWindows;
    /** Windows whose bounds are a guess (their output's, when the compositor gives no geometry). */
    private final Set<Long> approximateWindows;
    /**
     * Where a client-relative window's surface starts, packed by {@link #packOrigin}, for windows
     * whose surface is not their bounds (GNOME: a client-side shadow around the visible frame).
     */
    private final Map<Long, Long> surfaceOrigins;
    /** Mapped override-redirect windows (X11 popups: GTK 4 popovers, menus, tooltips), bottom to top. */
    private final List<WindowInfo> popups;
    /** {@code _GTK_FRAME_EXTENTS} of the clients that state it, by XID. */
    private final Map<Long, FrameExtents> frameExtents;

    public DesktopSnapshot(
        final long sequence,
        final long captureTimeNs,
        final long activeWindow,
        final List<WindowInfo> windows,
        final List<MonitorInfo> monitors) {
        this(sequence, captureTimeNs, activeWindow, windows, monitors, Set.of(), Set.of());
    }

    private DesktopSnapshot(
        final long sequence,
        final long captureTimeNs,
        final long activeWindow,
        final List<WindowInfo> windows,
        final List<MonitorInfo> monitors,
        final Set<Long> clientRelativeWindows,
        final Set<Long> approximateWindows) {
        this(sequence, captureTimeNs, activeWindow, windows, monitors, clientRelativeWindows, approximateWindows,
            Map.of(), List.of(), Map.of());
    }

    private DesktopSnapshot(
        final long sequence,
        final long captureTimeNs,
        final long activeWindow,
        final List<WindowInfo> windows,
        final List<MonitorInfo> monitors,
        final Set<Long> clientRelativeWindows,
        final Set<Long> approximateWindows,
        final Map<Long, Long> surfaceOrigins,
        final List<WindowInfo> popups,
        final Map<Long, FrameExtents> frameExtents) {
        this.surfaceOrigins = Map.copyOf(surfaceOrigins);
        this.popups = List.copyOf(popups);
        this.frameExtents = Map.copyOf(frameExtents);
        this.clientRelativeWindows = Set.copyOf(clientRelativeWindows);
        this.approximateWindows = Set.copyOf(approximateWindows);
        this.sequence = sequence;
        this.captureTimeNs = captureTimeNs;
        this.activeWindow = activeWindow;
        this.windows = List.copyOf(windows);
        this.monitors = List.copyOf(monitors);
        this.topologyEpoch = topologyEpoch(this.monitors);
    }

    /**
     * A snapshot read from another windowing system (a Wayland compositor): window ids are that
     * system's (sway's con ids), and {@code clientRelativeWindows} are the windows whose
     * applications report accessible extents relative to the window instead of the screen.
     */
    public static DesktopSnapshot of(final long sequence, final long captureTimeNs, final long activeWindow,
        final List<WindowInfo> windows, final List<MonitorInfo> monitors, final Set<Long> clientRelativeWindows) {
        return new DesktopSnapshot(sequence, captureTimeNs, activeWindow, windows, monitors, clientRelativeWindows,
            Set.of());
    }

    /**
     * {@link #of(long, long, long, List, List, Set)} with windows whose bounds are only
     * approximate: a compositor that lists toplevels without geometry (foreign-toplevel alone,
     * docs/wayland.md §1) gives each the bounds of its output, and the scene marks them APPROXIMATE.
     */
    public static DesktopSnapshot of(final long sequence, final long captureTimeNs, final long activeWindow,
        final List<WindowInfo> windows, final List<MonitorInfo> monitors, final Set<Long> clientRelativeWindows,
        final Set<Long> approximateWindows) {
        return new DesktopSnapshot(sequence, captureTimeNs, activeWindow, windows, monitors, clientRelativeWindows,
            approximateWindows);
    }

    /**
     * This snapshot with the surface origins of client-relative windows whose accessible extents
     * start elsewhere than their bounds (a window's buffer around its visible frame); values by
     * {@link #packOrigin}.
     */
    public DesktopSnapshot withSurfaceOrigins(final Map<Long, Long> origins) {
        return new DesktopSnapshot(sequence, captureTimeNs, activeWindow, windows, monitors, clientRelativeWindows,
            approximateWindows, origins, popups, frameExtents);
    }

    /**
     * This snapshot with the X11 surfaces a window list leaves out: the mapped override-redirect
     * windows ({@link #popups()}) and the clients' stated frame extents ({@link #frameExtents(long)}).
     */
    public DesktopSnapshot withSurfaces(final List<WindowInfo> popupWindows, final Map<Long, FrameExtents> extents) {
        return new DesktopSnapshot(sequence, captureTimeNs, activeWindow, windows, monitors, clientRelativeWindows,
            approximateWindows, surfaceOrigins, popupWindows, extents);
    }

    /**
     * Mapped override-redirect windows, bottom to top: on X11 each GTK 4 popover, menu and tooltip
     * is one, with its own position, which no window manager lists. Empty elsewhere.
     */
    public List<WindowInfo> popups() {
        return popups;
    }

    /** The frame extents client {@code xid} states ({@code _GTK_FRAME_EXTENTS}), or null if it states none. */
    public FrameExtents frameExtents(final long xid) {
        return frameExtents.get(xid);
    }

    /** A point packed for {@link #withSurfaceOrigins}: x in the high 32 bits, y in the low. */
    public static long packOrigin(final int x, final int y) {
        return ((long) x << 32) | (y & 0xffffffffL);
    }

    /**
     * Where the accessible extents of client-relative {@code window} start, given the size its
     * top-level accessible reports: its bounds' corner when no surface origin is known (sway);
     * the surface origin when the accessible is larger than the bounds (GTK: the buffer with its
     * shadow); else the content below a title bar the toolkit draws inside the window, centred
     * across (Qt on GNOME: the accessible frame is the content only).
     */
    public int contentX(final WindowInfo window, final int frameWidth, final int frameHeight) {
        if (!surfaceOrigins.containsKey(window.xid())) {
            return window.x();
        }
        return frameWidth > window.width() || frameHeight > window.height() ? surfaceX(window)
            : window.x() + (window.width() - frameWidth) / 2;
    }

    /** The y of {@link #contentX}'s point. */
    public int contentY(final WindowInfo window, final int frameWidth, final int frameHeight) {
        if (!surfaceOrigins.containsKey(window.xid())) {
            return window.y();
        }
        return frameWidth > window.width() || frameHeight > window.height() ? surfaceY(window)
            : window.y() + window.height() - frameHeight;
    }

    /** The x of a client-relative window's surface: its packed origin's, else its bounds'. */
    public int surfaceX(final WindowInfo window) {
        final Long origin = surfaceOrigins.get(window.xid());
        return origin == null ? window.x() : (int) (origin >> 32);
    }

    /** The y of a client-relative window's surface: its packed origin's, else its bounds'. */
    public int surfaceY(final WindowInfo window) {
        final Long origin = surfaceOrigins.get(window.xid());
        return origin == null ? window.y() : (int) origin.longValue();
    }

    /** Windows whose bounds are approximate (no geometry from the compositor); empty on X11 and sway's IPC. */
    public Set<Long> approximateWindows() {
        return approximateWindows;
    }

    /** Windows whose accessible extents are window-relative; empty on X11. */
    public Set<Long> clientRelativeWindows() {
        return clientRelativeWindows;
    }

    /**
     * Numbers the snapshots one reader delivered: 1, 2, 3 ... in delivery order. Two snapshots of
     * one reader never share a number; a {@link X11DesktopReader#readOnce(String)} snapshot is 1.
     */
    public long sequence() {
        return sequence;
    }

    /** {@link System#nanoTime()} when reading began: the state is no older than this. */
    public long captureTimeNs() {
        return captureTimeNs;
    }

    /** {@code _NET_ACTIVE_WINDOW}: the focused client window; 0 if none (e.g. the desktop has focus). */
    public long activeWindow() {
        return activeWindow;
    }

    /** Client windows bottom to top ({@code _NET_CLIENT_LIST_STACKING}); windows gone mid-read are left out. */
    public List<WindowInfo> windows() {
        return windows;
    }

    /** Monitors in the server's order; never empty when the display could be read. */
    public List<MonitorInfo> monitors() {
        return monitors;
    }

    /**
     * A 64-bit digest of the monitor layout (ids, bounds, primary flag), never 0: equal for equal
     * layouts, in any process and after restarts; different when a monitor is added, removed,
     * moved, resized or made primary. Compare for equality only; it does not grow.
     */
    public long topologyEpoch() {
        return topologyEpoch;
    }

    /** The window with this XID, or null if it is not listed. */
    public WindowInfo window(final long xid) {
        for (int i = 0, n = windows.size(); i < n; i++) {
            final WindowInfo w = windows.get(i);
            if (w.xid() == xid) {
                return w;
            }
        }
        return null;
    }

    /** The primary monitor, else the first; null only if there are no monitors. */
    public MonitorInfo primaryMonitor() {
        for (int i = 0, n = monitors.size(); i < n; i++) {
            if (monitors.get(i).primary()) {
                return monitors.get(i);
            }
        }
        return monitors.isEmpty() ? null : monitors.get(0);
    }

    /** Same desktop state: everything but {@link #sequence()} and {@link #captureTimeNs()}. */
    public boolean sameStateAs(final DesktopSnapshot other) {
        return other != null
            && activeWindow == other.activeWindow
            && topologyEpoch == other.topologyEpoch
            && windows.equals(other.windows)
            && monitors.equals(other.monitors)
            && clientRelativeWindows.equals(other.clientRelativeWindows)
            && approximateWindows.equals(other.approximateWindows)
            && surfaceOrigins.equals(other.surfaceOrigins)
            && popups.equals(other.popups)
            && frameExtents.equals(other.frameExtents);
    }

    static long topologyEpoch(final List<MonitorInfo> monitors) {
        long hash = 0x9E3779B97F4A7C15L;
        for (int i = 0, n = monitors.size(); i < n; i++) {
            final MonitorInfo m = monitors.get(i);
            hash = mix(hash, m.id());
            hash = mix(hash, ((long) m.x() << 32) | (m.y() & 0xFFFF_FFFFL));
            hash = mix(hash, ((long) m.width() << 32) | (m.height() & 0xFFFF_FFFFL));
            hash = mix(hash, m.primary() ? 1 : 0);
        }
        return hash == 0 ? 1 : hash;
    }

    private static long mix(final long hash, final long value) {
        long h = (hash ^ value) * 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 29);
    }

    @Override
    public String toString() {
        return "DesktopSnapshot{sequence=" + sequence + ", activeWindow=0x" + Long.toHexString(activeWindow)
            + ", windows=" + windows + ", popups=" + popups + ", monitors=" + monitors + ", topologyEpoch=" + topologyEpoch
            + '}';
    }
}
