package dev.saccade.wlroots;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.wayland.ForeignToplevels;
import dev.saccade.wayland.ForeignToplevels.Toplevel;
import dev.saccade.wayland.Outputs;
import dev.saccade.wayland.WaylandConnection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The windows of any wlroots compositor, from {@code zwlr_foreign_toplevel_manager_v1} alone
 * (docs/wayland.md §1, "Windows without sway's IPC"), on a thread that owns its Wayland
 * connection: a first snapshot before {@link #start()} returns, then one at every change a
 * handle commits ({@code done}) or a {@code closed}. The protocol gives title, app id, states
 * and outputs but no geometry, pid or stacking, so each window gets the bounds of its first
 * output and is listed in {@link DesktopSnapshot#approximateWindows()} (its target is then
 * APPROXIMATE); pid is 0 (accessible objects cannot be matched to it); minimized windows are
 * hidden and not viewable; the activated window is the focused one and is put on top, the
 * others in the order they appeared. Outputs are read once at the start (wl_output, scale 1).
 */
public final class ToplevelDesktopReader implements AutoCloseable {
    public static final String THREAD_NAME = "saccade-toplevel-reader";
    private static final int POLL_MS = 200;
    private static final long START_TIMEOUT_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(ToplevelDesktopReader.class);

    private final String display;
    private final Consumer<DesktopSnapshot> listener;
    private final CompletableFuture<Void> first = new CompletableFuture<>();
    private volatile boolean closed;
    private Thread thread;
    private long sequence;

    /** {@code display}: a socket name in XDG_RUNTIME_DIR or an absolute path, as {@link WaylandConnection#connect}. */
    public ToplevelDesktopReader(final String display, final Consumer<DesktopSnapshot> listener) {
        this.display = display;
        this.listener = listener;
    }

    /** Whether {@link WaylandConfiguration} asks for foreign-toplevel even where sway's IPC is present (tests). */
    public static boolean forced() {
        return WaylandConfiguration.foreignToplevelForced();
    }

    /** One snapshot over a connection of its own, for {@code saccade doctor}. */
    public static DesktopSnapshot readOnce(final String display) throws IOException {
        final java.util.concurrent.atomic.AtomicReference<DesktopSnapshot> first = new java.util.concurrent.atomic.AtomicReference<>();
        new ToplevelDesktopReader(display, s -> first.compareAndSet(null, s)).start().close();
        return first.get();
    }

    /** Connects, binds the outputs and the manager, and returns once the first snapshot was delivered. */
    public ToplevelDesktopReader start() throws IOException {
        thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
        try {
            first.get(START_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (final ExecutionException e) {
            close();
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (final TimeoutException e) {
            close();
            throw new IOException("no first toplevel snapshot from " + display + " within " + START_TIMEOUT_MS + " ms");
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IOException("interrupted", e);
        }
        return this;
    }

    private void run() {
        try (WaylandConnection connection = WaylandConnection.connect(display)) {
            final Outputs outputs = Outputs.read(connection);
            final ForeignToplevels toplevels = ForeignToplevels.bind(connection, outputs);
            if (toplevels == null) {
                throw new IOException("the compositor at " + display + " offers no zwlr_foreign_toplevel_manager_v1");
            }
            final List<MonitorInfo> monitors = monitors(outputs);
            while (!closed) {
                if (toplevels.changed()) {
                    listener.accept(snapshot(++sequence, toplevels.list(), monitors));
                }
                first.complete(null);
                if (!connection.pump(POLL_MS) || toplevels.finished()) {
                    throw new IOException("the Wayland connection to " + display + " ended (error "
                        + connection.error() + ")");
                }
            }
        } catch (final IOException | RuntimeException e) {
            if (!first.completeExceptionally(e) && !closed) {
                LOG.warn("event=toplevel_read_failed display={} error={}", display, e.toString());
            }
        }
    }

    static List<MonitorInfo> monitors(final Outputs outputs) {
        final List<MonitorInfo> monitors = new ArrayList<>();
        for (final Outputs.Output o : outputs.list()) {
            final String name = o.name() == null ? "output-" + monitors.size() : o.name();
            monitors.add(new MonitorInfo(MonitorInfo.stableId(name), name, o.x(), o.y(), o.width(), o.height(),
                monitors.isEmpty()));
        }
        return monitors;
    }

    /** The snapshot of these toplevels: see the class comment for what stands in for geometry and stacking. */
    static DesktopSnapshot snapshot(final long sequence, final List<Toplevel> toplevels, final List<MonitorInfo> monitors) {
        final long captureNs = System.nanoTime();
        final List<WindowInfo> windows = new ArrayList<>();
        final Set<Long> approximate = new HashSet<>();
        Toplevel active = null;
        for (final Toplevel t : toplevels) {
            if (t.has(ForeignToplevels.ACTIVATED) && active == null) {
                active = t;
            } else {
                windows.add(window(t, monitors));
            }
            approximate.add(t.id());
        }
        if (active != null) {
            windows.add(window(active, monitors)); // on top: the activated window is the one the user sees
        }
        return DesktopSnapshot.of(sequence, captureNs, active == null ? 0 : active.id(), windows, monitors, Set.of(),
            approximate);
    }

    private static WindowInfo window(final Toplevel t, final List<MonitorInfo> monitors) {
        final int index = t.outputs().isEmpty() ? 0 : t.outputs().get(0);
        final MonitorInfo m = index < monitors.size() ? monitors.get(index) : null;
        final boolean minimized = t.has(ForeignToplevels.MINIMIZED);
        return new WindowInfo(t.id(), 0, t.title(), m == null ? 0 : m.x(), m == null ? 0 : m.y(),
            m == null ? 0 : m.width(), m == null ? 0 : m.height(), minimized, !minimized, WindowInfo.NO_DESKTOP);
    }

    @Override
    public void close() {
        closed = true;
        if (thread != null && thread != Thread.currentThread()) {
            try {
                thread.join(2_000); // the thread sees closed within one poll and disconnects
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
