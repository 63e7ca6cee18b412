package dev.saccade.x11;

import dev.saccade.desktop.DesktopSnapshot;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches an X display on its own thread and hands each changed {@link DesktopSnapshot} to a
 * listener.
 *
 * <p>The thread ({@value #THREAD_NAME}, daemon) opens its own connection, selects structure and
 * property events on the root window and on every listed client, and XRandR screen, CRTC and
 * output events. It sleeps in {@code poll()} on the X socket and a wake pipe, so an idle desktop
 * costs no CPU and {@link #close()} wakes it at once. Events come in bursts (activating a window
 * changes the active window, the stacking list and several frames): the reader drains every
 * queued event, waits until no relevant event arrived for the quiet period (or the burst has
 * lasted the maximum delay), then reads the desktop once. A snapshot equal in state to the last
 * one delivered is dropped, so the listener sees only changes.
 *
 * <p>The listener runs on the reader thread: it should hand the snapshot over and return. A
 * listener exception is counted, the first one logged, and reading continues.
 *
 * <p>If the X server goes away, the thread stops ({@link #isRunning()} turns false); it does not
 * reconnect. Xlib's fatal handlers are replaced (see {@link X11Native}), so the JVM lives.
 */
public final class X11DesktopReader implements AutoCloseable {
    public static final String THREAD_NAME = "saccade-x11-reader";
    /**
     * Default quiet period: 3 ms. Openbox answers an activation with its property and
     * configure events within about a millisecond; 3 ms catches the burst and keeps latency low.
     */
    public static final long DEFAULT_COALESCE_QUIET_NS = TimeUnit.MILLISECONDS.toNanos(3);
    /** Default ceiling on the wait for quiet: 30 ms, so a window dragged continuously is still seen. */
    public static final long DEFAULT_COALESCE_MAX_NS = TimeUnit.MILLISECONDS.toNanos(30);
    /** How long {@link #start()} waits for the connection and the first snapshot. */
    public static final long START_TIMEOUT_MS = 10_000;
    /** How long {@link #close()} waits for the thread. */
    public static final long CLOSE_TIMEOUT_MS = 2_000;

    /** After this many wake-ups with the X socket readable but no event, the connection is dead. */
    private static final int MAX_EMPTY_WAKEUPS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(X11DesktopReader.class);

    private final String displayName;
    private final Consumer<DesktopSnapshot> listener;
    private final long coalesceQuietNs;
    private final long coalesceMaxNs;
    private final CountDownLatch started = new CountDownLatch(1);

    // Guarded by this: start() and close() may come from any thread.
    private Thread thread;
    private int wakeReadFd = -1;
    private int wakeWriteFd = -1;
    private boolean closed;

    /** Cleared by close() (any thread) or by the reader thread when it stops. */
    private volatile boolean running;
    /** Set by close() when called on the reader thread itself: the thread closes the pipe. */
    private volatile boolean closePipeOnExit;
    /** Written by the reader thread before {@link #started} opens. */
    private volatile Throwable startFailure;
    /** Written only by the reader thread. */
    private volatile DesktopSnapshot latest;
    private volatile int connectionFd = -1;
    private volatile long eventCount;
    private volatile long buildCount;
    private volatile long deliveredCount;
    private volatile long listenerFailureCount;

    /**
     * @param displayName an X display such as {@code ":0"}; null means {@code $DISPLAY}
     * @param listener receives each changed snapshot on the reader thread
     */
    public X11DesktopReader(final String displayName, final Consumer<DesktopSnapshot> listener) {
        this(displayName, listener, DEFAULT_COALESCE_QUIET_NS, DEFAULT_COALESCE_MAX_NS);
    }

    /**
     * @param coalesceQuietNs read once no relevant event arrived for this long (rounded up to ms)
     * @param coalesceMaxNs read at the latest this long after the first event of a burst
     */
    public X11DesktopReader(
        final String displayName,
        final Consumer<DesktopSnapshot> listener,
        final long coalesceQuietNs,
        final long coalesceMaxNs) {
        if (coalesceQuietNs < 0 || coalesceMaxNs < coalesceQuietNs) {
            throw new IllegalArgumentException(
                "coalesceQuietNs=" + coalesceQuietNs + " coalesceMaxNs=" + coalesceMaxNs);
        }
        this.displayName = displayName;
        this.listener = Objects.requireNonNull(listener, "listener");
        this.coalesceQuietNs = coalesceQuietNs;
        this.coalesceMaxNs = coalesceMaxNs;
    }

    /**
     * Reads the desktop once over a connection of its own, on the calling thread.
     *
     * @param displayName an X display such as {@code ":0"}; null means {@code $DISPLAY}
     * @return a snapshot with sequence 1
     * @throws X11Exception if the display cannot be opened or the connection breaks
     */
    public static DesktopSnapshot readOnce(final String displayName) {
        try (X11Desktop x = X11Desktop.open(displayName)) {
            final DesktopSnapshot snapshot = new SnapshotBuilder(x, false).build(1);
            if (x.connectionLost()) {
                throw new X11Exception("connection to X display " + displayName + " broke while reading");
            }
            return snapshot;
        }
    }

    /**
     * The EWMH window manager's name: {@code _NET_SUPPORTING_WM_CHECK} on the root names a
     * window whose {@code _NET_WM_NAME} is the manager's. Null when no EWMH manager runs (then
     * there is no client list, no active window, no activation).
     *
     * @throws X11Exception if the display cannot be opened
     */
    public static String windowManager(final String displayName) {
        try (X11Desktop x = X11Desktop.open(displayName)) {
            final long check = x.intern("_NET_SUPPORTING_WM_CHECK");
            final long window = x.longProperty(x.root(), check, X11Desktop.XA_WINDOW, 0);
            if (window == 0 || x.longProperty(window, check, X11Desktop.XA_WINDOW, 0) != window) {
                return null; // absent, or stale from a manager that died
            }
            final String name = x.title(window);
            return name.isEmpty() ? "(unnamed)" : name;
        }
    }

    /**
     * Starts the reader thread and waits until it has delivered the first snapshot.
     *
     * @return this
     * @throws X11Exception if the display cannot be opened, or no snapshot came within
     *     {@link #START_TIMEOUT_MS}
     * @throws IllegalStateException if started before or closed
     */
    public X11DesktopReader start() {
        synchronized (this) {
            if (closed || thread != null) {
                throw new IllegalStateException(closed ? "closed" : "started twice");
            }
            final int[] pipe = X11Desktop.openWakePipe();
            wakeReadFd = pipe[0];
            wakeWriteFd = pipe[1];
            running = true;
            thread = new Thread(this::run, THREAD_NAME);
            thread.setDaemon(true);
            thread.start();
        }
        boolean ready;
        try {
            ready = started.await(START_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new X11Exception("interrupted while starting the X11 reader for " + displayName, e);
        }
        final Throwable failure = startFailure;
        if (!ready || failure != null) {
            close();
            throw failure instanceof X11Exception
                ? (X11Exception) failure
                : new X11Exception(ready
                    ? "X11 reader for " + displayName + " failed to start"
                    : "no snapshot of " + displayName + " within " + START_TIMEOUT_MS + " ms", failure);
        }
        return this;
    }

    /** The last snapshot delivered; null before the first. */
    public DesktopSnapshot latest() {
        return latest;
    }

    /** True from {@link #start()} until {@link #close()} or a lost X connection. */
    public boolean isRunning() {
        return running;
    }

    /** X events read since start. */
    public long eventCount() {
        return eventCount;
    }

    /** Snapshots read from the server, delivered or not. */
    public long buildCount() {
        return buildCount;
    }

    /** Snapshots handed to the listener. */
    public long deliveredCount() {
        return deliveredCount;
    }

    /** Listener calls that threw. */
    public long listenerFailureCount() {
        return listenerFailureCount;
    }

    /** The X connection's socket descriptor while the thread runs; -1 before. Tests check it is closed. */
    int connectionFd() {
        return connectionFd;
    }

    /**
     * Stops the thread and closes its X connection: the thread is woken through its pipe and
     * joined for up to {@link #CLOSE_TIMEOUT_MS}; once this returns the listener is not called
     * again. Idempotent; may be called from the listener itself (then without the join). If the thread is stuck in the
     * listener past that, it is left to finish alone and the pipe is left open (logged), so no
     * descriptor number is closed under a thread that may still use it.
     */
    @Override
    public void close() {
        final Thread t;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            running = false;
            t = thread;
            if (wakeWriteFd >= 0) {
                X11Desktop.wake(wakeWriteFd);
            }
            if (t == Thread.currentThread()) {
                closePipeOnExit = true; // called from the listener: the thread closes it as it leaves
                return;
            }
        }
        if (t != null) {
            try {
                t.join(CLOSE_TIMEOUT_MS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                LOG.warn("x11-reader close-timeout display={} timeoutMs={}", displayName, CLOSE_TIMEOUT_MS);
                return;
            }
        }
        closeWakePipe();
    }

    private synchronized void closeWakePipe() {
        if (wakeReadFd >= 0) {
            X11Desktop.closeFd(wakeReadFd);
            X11Desktop.closeFd(wakeWriteFd);
            wakeReadFd = -1;
            wakeWriteFd = -1;
        }
    }

    // ---------------------------------------------------------------- reader thread

    private void run() {
        final X11Desktop x;
        try {
            x = X11Desktop.open(displayName);
        } catch (final Throwable t) {
            startFailure = t;
            running = false;
            started.countDown();
            return;
        }
        String reason = "closed";
        try {
            connectionFd = x.connectionFd();
            x.selectRootEvents();
            LOG.info("x11-reader start display={} randr={}", displayName, x.hasRandr());
            final SnapshotBuilder builder = new SnapshotBuilder(x, true);
            if (!rebuild(x, builder)) {
                throw new X11Exception("connection to X display " + displayName + " broke while reading");
            }
            started.countDown();
            reason = loop(x, builder);
        } catch (final Throwable t) {
            reason = "failure";
            if (started.getCount() > 0) {
                startFailure = t;
            } else {
                LOG.error("x11-reader failure display={}", displayName, t);
            }
        } finally {
            running = false;
            x.close();
            started.countDown();
            LOG.info("x11-reader stop display={} reason={} events={} builds={} delivered={}",
                displayName, reason, eventCount, buildCount, deliveredCount);
            if (closePipeOnExit) {
                closeWakePipe();
            }
        }
    }

    /** @return why it stopped: "closed" or "io-error" */
    private String loop(final X11Desktop x, final SnapshotBuilder builder) {
        final int wakeFd = wakeReadFd; // fixed before the thread started
        boolean dirty = false;
        long firstDirtyNs = 0;
        long lastDirtyNs = 0;
        int emptyWakeups = 0;
        while (running) {
            int n;
            while ((n = x.pending()) > 0) {
                emptyWakeups = 0;
                for (int i = 0; i < n; i++) {
                    x.nextEvent();
                    eventCount++;
                    if (isRelevant(x)) {
                        lastDirtyNs = System.nanoTime();
                        if (!dirty) {
                            dirty = true;
                            firstDirtyNs = lastDirtyNs;
                        }
                    }
                }
            }
            if (x.connectionLost()) {
                return "io-error";
            }

            int timeoutMs = -1;
            if (dirty) {
                final long nowNs = System.nanoTime();
                final long dueNs = Math.min(lastDirtyNs + coalesceQuietNs, firstDirtyNs + coalesceMaxNs);
                if (nowNs - dueNs >= 0) {
                    dirty = false;
                    if (!rebuild(x, builder)) {
                        return "io-error";
                    }
                    continue; // the reads may have queued new events: drain before sleeping
                }
                timeoutMs = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(dueNs - nowNs + 999_999));
            }
            final int ready = x.await(wakeFd, timeoutMs);
            if ((ready & X11Desktop.POLL_WAKE_READY) != 0) {
                return "closed";
            }
            if ((ready & X11Desktop.POLL_X_READY) != 0 && ++emptyWakeups > MAX_EMPTY_WAKEUPS) {
                return "io-error"; // readable forever and never an event: a socket Xlib failed to flag
            }
        }
        return "closed";
    }

    /** Events that can change a snapshot; the rest (user-time stamps, focus, popups' own properties) are skipped. */
    private static boolean isRelevant(final X11Desktop x) {
        final int type = x.eventType();
        switch (type) {
            case X11Desktop.PROPERTY_NOTIFY: {
                final long atom = x.eventAtom();
                if (x.eventWindow() == x.root()) {
                    return atom == x.netClientListStacking || atom == x.netClientList || atom == x.netActiveWindow;
                }
                return atom == x.netWmName || atom == X11Desktop.XA_WM_NAME || atom == x.netWmState
                    || atom == x.netWmDesktop || atom == x.netWmPid || atom == x.gtkFrameExtents;
            }
            case X11Desktop.CONFIGURE_NOTIFY:
            case X11Desktop.MAP_NOTIFY:
            case X11Desktop.UNMAP_NOTIFY:
            case X11Desktop.DESTROY_NOTIFY:
            case X11Desktop.REPARENT_NOTIFY:
            case X11Desktop.GRAVITY_NOTIFY:
            case X11Desktop.CIRCULATE_NOTIFY:
                return true;
            default:
                return x.isRandrEvent(type);
        }
    }

    /**
     * Reads the desktop and delivers it if it differs from the last snapshot delivered.
     *
     * @return false if the connection broke (the half-read snapshot is dropped)
     */
    private boolean rebuild(final X11Desktop x, final SnapshotBuilder builder) {
        final DesktopSnapshot snapshot = builder.build(deliveredCount + 1);
        buildCount++;
        if (x.connectionLost()) {
            return false;
        }
        if (snapshot.sameStateAs(latest)) {
            return true;
        }
        latest = snapshot;
        deliveredCount++;
        try {
            listener.accept(snapshot);
        } catch (final RuntimeException e) {
            if (++listenerFailureCount == 1) {
                LOG.warn("x11-reader listener-failure display={} count=1", displayName, e);
            }
        }
        return true;
    }
}
