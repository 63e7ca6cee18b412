package dev.saccade.x11;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.FrameExtents;
import dev.saccade.desktop.WindowInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one {@link DesktopSnapshot} over an open connection: the EWMH root properties, then each
 * listed client. Used only by the thread that owns the connection.
 *
 * <p>A client window can be destroyed at any point between two requests. Each client's
 * properties are read first and its geometry last: if the geometry read still succeeds, the
 * window existed through all of its reads (an XID is not reused that fast), so the entry is
 * consistent; if it fails, the window is left out. Properties that are absent or have an
 * unexpected type read as their defaults.
 *
 * <p>Besides the listed clients it reads what no window manager lists: each client's
 * {@code _GTK_FRAME_EXTENTS}, and the root's mapped override-redirect children (GTK 4's
 * popovers and menus are such windows, placed by the application itself), with their pid.
 */
final class SnapshotBuilder {
    private static final long[] NONE = new long[0];

    private final X11Desktop x;
    private final boolean selectClients;
    private final int[] geometry = new int[5];
    /** Clients already given an event mask, sorted; written only by the connection's thread. */
    private long[] selected = NONE;

    /**
     * @param selectClients give each newly listed client an event mask (the reader needs their
     *     title, state and size changes; a one-off read does not)
     */
    SnapshotBuilder(final X11Desktop x, final boolean selectClients) {
        this.x = x;
        this.selectClients = selectClients;
    }

    DesktopSnapshot build(final long sequence) {
        final long captureTimeNs = System.nanoTime();
        final long root = x.root();
        long[] clients = x.longListProperty(root, x.netClientListStacking, X11Desktop.XA_WINDOW);
        if (clients.length == 0) {
            // A window manager without the stacking list: mapping order is the best there is.
            clients = x.longListProperty(root, x.netClientList, X11Desktop.XA_WINDOW);
        }
        if (selectClients) {
            selectNewClients(clients);
        }
        final long activeWindow = x.longProperty(root, x.netActiveWindow, X11Desktop.XA_WINDOW, 0);

        final List<WindowInfo> windows = new ArrayList<>(clients.length);
        Map<Long, FrameExtents> frames = Map.of();
        for (final long w : clients) {
            final long pid = x.longProperty(w, x.netWmPid, X11Desktop.XA_CARDINAL, 0);
            final String title = x.title(w);
            final boolean hidden = x.atomListContains(w, x.netWmState, x.netWmStateHidden);
            final long desktop = x.longProperty(w, x.netWmDesktop, X11Desktop.XA_CARDINAL, -1L);
            final long[] extents = x.longListProperty(w, x.gtkFrameExtents, X11Desktop.XA_CARDINAL);
            if (!x.geometry(w, geometry)) {
                continue; // destroyed while we read it
            }
            windows.add(new WindowInfo(w, pid, title, geometry[0], geometry[1], geometry[2], geometry[3],
                hidden, geometry[4] == X11Desktop.IS_VIEWABLE, desktopNumber(desktop)));
            if (extents.length == 4) {
                if (frames.isEmpty()) {
                    frames = new HashMap<>();
                }
                frames.put(w, new FrameExtents((int) extents[0], (int) extents[1], (int) extents[2], (int) extents[3]));
            }
        }
        return new DesktopSnapshot(sequence, captureTimeNs, activeWindow, windows, x.monitors())
            .withSurfaces(popups(), frames);
    }

    /** The root's mapped override-redirect children, bottom to top, with their pid; title and desktop unread. */
    private List<WindowInfo> popups() {
        List<WindowInfo> popups = List.of();
        for (final long w : x.rootChildren()) {
            if (!x.popupGeometry(w, geometry)) {
                continue;
            }
            final long pid = x.longProperty(w, x.netWmPid, X11Desktop.XA_CARDINAL, 0);
            if (pid == 0) {
                continue; // no application claims it (a window manager's own popup): nothing to match it to
            }
            if (popups.isEmpty()) {
                popups = new ArrayList<>(4);
            }
            popups.add(new WindowInfo(w, pid, "", geometry[0], geometry[1], geometry[2], geometry[3], false, true,
                WindowInfo.NO_DESKTOP));
        }
        return popups;
    }

    private static int desktopNumber(final long desktop) {
        if (desktop == -1L) {
            return WindowInfo.NO_DESKTOP;
        }
        if (desktop == 0xFFFF_FFFFL) {
            return WindowInfo.ALL_DESKTOPS;
        }
        return (int) Math.min(desktop, Integer.MAX_VALUE);
    }

    /**
     * Selects events on clients not seen before, before their properties are read, so that a
     * change right after the read still arrives as an event. Windows that left the list keep
     * their mask: they are destroyed or withdrawn, and unselecting a destroyed window would only
     * cost a BadWindow.
     */
    private void selectNewClients(final long[] clients) {
        final long[] sorted = clients.clone();
        Arrays.sort(sorted);
        for (final long w : sorted) {
            if (Arrays.binarySearch(selected, w) < 0) {
                x.selectClientEvents(w);
            }
        }
        selected = sorted;
    }
}
