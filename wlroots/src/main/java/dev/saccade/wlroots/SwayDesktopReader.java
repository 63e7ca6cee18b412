package dev.saccade.wlroots;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.wayland.SwayIpc;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The windows and outputs of a sway (or i3-IPC compatible wlroots) session, read over its IPC
 * socket on a thread of its own, like {@link dev.saccade.x11.X11DesktopReader} on X11: a
 * first snapshot before {@link #start()} returns, then a new one whenever sway reports a window
 * or workspace event (a second connection subscribed to them) and the state differs. sway 1.7
 * has no output event, so a read also happens every {@value #RESYNC_MS} ms without an event: an
 * output change (and a missed event) shows within that. A window that just appeared is delivered
 * again {@value #NUDGE_MS} ms and 4 × that later, unchanged: GTK on Wayland reports 0×0 accessible
 * extents until its first layout, and each delivery makes the owner refresh the trees, while
 * nothing else would once the window stays put. {@code zwlr_foreign_toplevel_manager_v1} lists toplevels on any wlroots compositor
 * but has no geometry or pid, which the scene needs, so sway's IPC is the source where it exists;
 * {@link ToplevelDesktopReader} serves the compositors without it.
 */
public final class SwayDesktopReader implements AutoCloseable {
    public static final String THREAD_NAME = "saccade-sway-reader";
    static final long RESYNC_MS = 1_000;
    static final long NUDGE_MS = 250;
    private static final long START_TIMEOUT_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(SwayDesktopReader.class);

    private final Path socket;
    private final Consumer<DesktopSnapshot> listener;
    private final Semaphore changed = new Semaphore(0);
    private final Semaphore first = new Semaphore(0);
    private volatile boolean closed;
    private SwayIpc requests;
    private SwayIpc events;
    private Thread thread;
    private Thread eventThread;
    private DesktopSnapshot last;
    private long sequence;
    private final java.util.Set<Long> seenWindows = new java.util.HashSet<>();
    /** When to deliver the last snapshot again for new windows (0: not due), and how many times more. */
    private long nudgeAtNs;
    private int nudgesLeft;

    public SwayDesktopReader(final Path socket, final Consumer<DesktopSnapshot> listener) {
        this.socket = socket;
        this.listener = listener;
    }

    /** Connects, subscribes and returns once the first snapshot was delivered. */
    public SwayDesktopReader start() throws IOException {
        requests = SwayIpc.connect(socket);
        events = SwayIpc.connect(socket);
        final String reply = events.request(SwayIpc.SUBSCRIBE, "[\"window\", \"workspace\"]");
        if (!reply.contains("true")) {
            throw new IOException("sway refused the subscription: " + reply);
        }
        eventThread = new Thread(this::followEvents, THREAD_NAME + "-events");
        eventThread.setDaemon(true);
        eventThread.start();
        thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
        try {
            if (!first.tryAcquire(START_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                close();
                throw new IOException("no first snapshot from sway at " + socket + " within " + START_TIMEOUT_MS + " ms");
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IOException("interrupted", e);
        }
        return this;
    }

    /** One snapshot over a connection of its own, for {@code saccade doctor}. */
    public static DesktopSnapshot readOnce(final Path socket) throws IOException {
        try (SwayIpc ipc = SwayIpc.connect(socket)) {
            return read(ipc, 1);
        }
    }

    /**
     * The X11 window id of each XWayland view (sway's con id to its {@code window}), for the
     * pixel source, which asks XWayland for those windows' child windows as X11 does.
     */
    public static java.util.Map<Long, Long> x11Windows(final SwayIpc ipc) throws IOException {
        return java.util.Map.copyOf(SwayTree.parse(ipc.request(SwayIpc.GET_TREE, "")).x11Windows);
    }

    private static DesktopSnapshot read(final SwayIpc ipc, final long sequence) throws IOException {
        final long captureNs = System.nanoTime();
        final SwayTree tree = SwayTree.parse(ipc.request(SwayIpc.GET_TREE, ""));
        return DesktopSnapshot.of(sequence, captureNs, tree.focused, tree.windows,
            SwayTree.outputs(ipc.request(SwayIpc.GET_OUTPUTS, "")), tree.clientRelative);
    }

    private void followEvents() {
        try {
            while (!closed) {
                events.nextEvent();
                changed.release();
            }
        } catch (final IOException e) {
            if (!closed) {
                LOG.warn("event=sway_events_lost socket={} error={}", socket, e.toString());
            }
        }
    }

    private void run() {
        while (!closed) {
            try {
                final DesktopSnapshot next = read(requests, sequence + 1);
                final long now = System.nanoTime();
                boolean appeared = false;
                for (final dev.saccade.desktop.WindowInfo w : next.windows()) {
                    appeared |= seenWindows.add(w.xid());
                }
                if (appeared) {
                    nudgeAtNs = now + TimeUnit.MILLISECONDS.toNanos(NUDGE_MS);
                    nudgesLeft = 2;
                }
                final boolean nudge = nudgesLeft > 0 && now - nudgeAtNs >= 0;
                if (last == null || !next.sameStateAs(last) || nudge) {
                    sequence++;
                    last = next;
                    listener.accept(next);
                }
                if (nudge) {
                    nudgesLeft--;
                    nudgeAtNs = now + TimeUnit.MILLISECONDS.toNanos(4 * NUDGE_MS);
                }
                first.release();
                final long waitMs = nudgesLeft > 0
                    ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(nudgeAtNs - System.nanoTime())) : RESYNC_MS;
                changed.tryAcquire(Math.min(waitMs, RESYNC_MS), TimeUnit.MILLISECONDS);
                changed.drainPermits(); // one read covers every event so far
            } catch (final IOException e) {
                if (!closed) {
                    LOG.warn("event=sway_read_failed socket={} error={}", socket, e.toString());
                    closed = true;
                }
            } catch (final InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        for (final SwayIpc ipc : new SwayIpc[] {events, requests}) {
            if (ipc != null) {
                try {
                    ipc.close();
                } catch (final IOException ignore) {
                    // reason: closing; nothing is held on the socket
                }
            }
        }
        for (final Thread t : new Thread[] {thread, eventThread}) {
            if (t != null) {
                t.interrupt();
                try {
                    t.join(2_000);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
