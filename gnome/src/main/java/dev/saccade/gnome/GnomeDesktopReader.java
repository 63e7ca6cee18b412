package dev.saccade.gnome;

import dev.saccade.desktop.DesktopSnapshot;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The windows and monitors of a GNOME session, read from the extension's {@code ListWindows} on
 * a thread of its own every {@link GnomeConfiguration#pollMs()} ms (the extension sends no
 * signals yet); a snapshot goes to the listener when it differs from the last, and once more
 * 250 ms and 1 s after a window appeared, for GTK's first accessible extents (docs/wayland.md §2).
 */
final class GnomeDesktopReader implements AutoCloseable {
    static final String THREAD_NAME = "saccade-gnome-reader";
    private static final long START_TIMEOUT_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(GnomeDesktopReader.class);

    private final String busAddress;
    private final Consumer<DesktopSnapshot> listener;
    private final CompletableFuture<Void> first = new CompletableFuture<>();
    private volatile boolean closed;
    private Thread thread;

    GnomeDesktopReader(final String busAddress, final Consumer<DesktopSnapshot> listener) {
        this.busAddress = busAddress;
        this.listener = listener;
    }

    /** One snapshot over a connection of its own, for {@code saccade doctor}. */
    static DesktopSnapshot readOnce(final String busAddress) throws IOException {
        try (ShellClient shell = ShellClient.connect(busAddress)) {
            return ShellWindows.parse(shell.listWindows(), 1, System.nanoTime());
        } catch (final DBusException | DBusExecutionException e) {
            throw new IOException("GNOME Shell's Saccade extension does not answer: " + e.getMessage(), e);
        }
    }

    GnomeDesktopReader start() throws IOException {
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
            throw new IOException("no first window list from GNOME Shell within " + START_TIMEOUT_MS + " ms");
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IOException("interrupted waiting for the first window list", e);
        }
        return this;
    }

    /** The pause before a failed window list is asked again. */
    private static final long RETRY_NS = TimeUnit.MILLISECONDS.toNanos(500);

    private void run() {
        final long pollNs = TimeUnit.MILLISECONDS.toNanos(GnomeConfiguration.pollMs());
        try (ShellClient shell = ShellClient.connect(busAddress)) {
            long sequence = 0;
            DesktopSnapshot last = null;
            final java.util.Set<Long> seen = new java.util.HashSet<>();
            long nudgeAtNs = 0;
            int nudgesLeft = 0;
            boolean failing = false;
            while (!closed) {
                final String list;
                try {
                    list = shell.listWindows();
                } catch (final DBusExecutionException e) {
                    if (!first.isDone()) {
                        throw e;
                    }
                    // Once it has answered, a failed call (the shell busy, or its bus connection dropped
                    // and taken again) is asked again: a reader that stopped here left the scene without
                    // windows for good while the shell went on.
                    if (!failing) {
                        LOG.warn("event=gnome_reader_retry error={}", e.toString());
                        failing = true;
                    }
                    LockSupport.parkNanos(Math.max(pollNs, RETRY_NS));
                    continue;
                }
                failing = false;
                final DesktopSnapshot next = ShellWindows.parse(list, sequence + 1, System.nanoTime());
                final long now = System.nanoTime();
                boolean appeared = false;
                for (final dev.saccade.desktop.WindowInfo w : next.windows()) {
                    appeared |= seen.add(w.xid());
                }
                if (appeared) {
                    nudgeAtNs = now + TimeUnit.MILLISECONDS.toNanos(250);
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
                    nudgeAtNs = now + TimeUnit.MILLISECONDS.toNanos(750);
                }
                first.complete(null);
                LockSupport.parkNanos(pollNs);
            }
        } catch (final DBusException | DBusExecutionException | IOException e) {
            if (!first.completeExceptionally(new IOException("GNOME Shell's Saccade extension does not answer: "
                + e.getMessage(), e)) && !closed) {
                LOG.warn("event=gnome_reader_stopped error={}", e.toString());
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        if (thread != null) {
            LockSupport.unpark(thread);
            try {
                thread.join(2_000);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
