package dev.saccade.wlroots;

import com.sun.jna.Memory;
import dev.saccade.desktop.DesktopBackend;
import dev.saccade.desktop.ScreenCapture;
import dev.saccade.wayland.Outputs;
import dev.saccade.wayland.Screencopy;
import dev.saccade.wayland.SwayIpc;
import dev.saccade.wayland.WaylandConnection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@link ScreenCapture} of a wlroots compositor ({@link WlrootsBackend#openCapture}): its pixels through screencopy (the {@code wayland} module's
 * {@link Screencopy}), on a Wayland connection of the pixel thread's own. Screencopy without
 * damage tracking has no damage events to wait for, so the whole layout counts as damaged every
 * {@value #DAMAGE_PERIOD_MS} ms: the pixel source then re-captures its windows and its analysis
 * cache skips the unchanged ones. Regions are captured from the output holding their top-left
 * corner (one output on a headless sway). An XWayland window's X11 child windows (Xt and Tk
 * make every widget one; the analysis takes them as exact boxes, xmessage's rounded buttons have
 * no box edges to find) are read as on X11: its X11 id from sway's IPC, the children from the
 * capture that the X11 backend handed to {@link WlrootsBackend} opens on XWayland
 * ({@value WaylandConfiguration#XDISPLAY_PROP_NAME}, else DISPLAY), whose root coordinates are the
 * layout's (docs/wayland.md §1). Without sway's IPC or XWayland there are none, as for native windows.
 */
final class WaylandCapture implements ScreenCapture {
    static final long DAMAGE_PERIOD_MS = 1_000;
    private static final int CAPTURE_TIMEOUT_MS = 2_000;
    private static final short POLLIN = 1;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WaylandCapture.class);

    private final WaylandConnection connection;
    private final Outputs outputs;
    private final Screencopy screencopy;
    private final Memory pollFd = new Memory(8);
    private long nextDamageNs = System.nanoTime();
    private final String socket;
    /** The backend that captures XWayland's display; null: no child windows are read. */
    private final DesktopBackend xwaylandBackend;
    /** Opened at the first XWayland window; null before, or when there is none to open. */
    private SwayIpc ipc;
    private ScreenCapture xwayland;
    private boolean childrenUnavailable;

    private WaylandCapture(final String socket, final DesktopBackend xwaylandBackend,
        final WaylandConnection connection, final Outputs outputs, final Screencopy screencopy) {
        this.socket = socket;
        this.xwaylandBackend = xwaylandBackend;
        this.connection = connection;
        this.outputs = outputs;
        this.screencopy = screencopy;
    }

    static WaylandCapture open(final String socket, final DesktopBackend xwaylandBackend) {
        WaylandConnection connection = null;
        try {
            connection = WaylandConnection.connect(socket);
            final Outputs outputs = Outputs.read(connection);
            return new WaylandCapture(socket, xwaylandBackend, connection, outputs, Screencopy.open(connection));
        } catch (final IOException | UnsatisfiedLinkError e) {
            if (connection != null) {
                connection.close();
            }
            throw new IllegalStateException("no Wayland screencopy on " + socket + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int screenWidth() {
        return outputs.layoutWidth();
    }

    @Override
    public int screenHeight() {
        return outputs.layoutHeight();
    }

    @Override
    public long captures() {
        return screencopy.captures();
    }

    @Override
    public boolean capture(final int x, final int y, final int width, final int height, final int[] out) {
        final List<Outputs.Output> list = outputs.list();
        for (int i = 0; i < list.size(); i++) {
            final Outputs.Output o = list.get(i);
            if (x >= o.x() && y >= o.y() && x < o.x() + o.width() && y < o.y() + o.height()) {
                try {
                    final int[] size = screencopy.captureXrgb(outputs.proxy(i), x - o.x(), y - o.y(), width, height, out,
                        CAPTURE_TIMEOUT_MS);
                    // XRGB's X byte is undefined (0xff on sway): the X11 capture's pixels have 0 there.
                    for (int p = 0, n = width * height; p < n; p++) {
                        out[p] &= 0x00ffffff;
                    }
                    return size[0] == width && size[1] == height;
                } catch (final IOException e) {
                    return false;
                }
            }
        }
        return false;
    }

    @Override
    public void descendants(final long window, final List<int[]> out) {
        if (childrenUnavailable) {
            return; // native Wayland toplevels have no child windows a client could list
        }
        try {
            if (ipc == null) {
                final Path path = SwayIpc.locate(socket);
                final String xdisplay = WaylandConfiguration.xDisplay();
                if (xwaylandBackend == null || path == null || xdisplay == null || xdisplay.isEmpty()) {
                    childrenUnavailable = true;
                    return;
                }
                ipc = SwayIpc.connect(path);
                xwayland = xwaylandBackend.openCapture(xdisplay);
            }
            final Long x11 = SwayDesktopReader.x11Windows(ipc).get(window);
            if (x11 != null) {
                xwayland.descendants(x11, out);
            }
        } catch (final IOException | IllegalStateException e) {
            LOG.warn("event=xwayland_children_unavailable socket={} error={}", socket, e.toString());
            childrenUnavailable = true;
            closeXWayland();
        }
    }

    private void closeXWayland() {
        if (xwayland != null) {
            xwayland.close();
            xwayland = null;
        }
        if (ipc != null) {
            try {
                ipc.close();
            } catch (final IOException ignore) {
                // reason: closing; nothing is held on the socket
            }
            ipc = null;
        }
    }

    @Override
    public int drainDamage(final DamageSink sink) {
        connection.pump();
        if (System.nanoTime() - nextDamageNs < 0) {
            return 0;
        }
        nextDamageNs = System.nanoTime() + DAMAGE_PERIOD_MS * 1_000_000L;
        sink.damaged(0, 0, screenWidth(), screenHeight());
        return 1;
    }

    @Override
    public int await(final int wakeFd, final int timeoutMs) {
        final long untilDamageMs = Math.max(0, (nextDamageNs - System.nanoTime()) / 1_000_000L);
        final int wait = (int) (timeoutMs < 0 ? untilDamageMs : Math.min(timeoutMs, untilDamageMs));
        pollFd.setInt(0, wakeFd);
        pollFd.setShort(4, POLLIN);
        pollFd.setShort(6, (short) 0);
        if (LibC.poll(pollFd, 1, wait) > 0 && pollFd.getShort(6) != 0) {
            return POLL_WAKE_READY;
        }
        return System.nanoTime() - nextDamageNs >= 0 ? POLL_CAPTURE_READY : 0;
    }

    @Override
    public void close() {
        closeXWayland();
        screencopy.close();
        connection.close();
    }
}
