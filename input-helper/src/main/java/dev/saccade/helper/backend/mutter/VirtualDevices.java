package dev.saccade.helper.backend.mutter;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.types.UInt32;

/**
 * Waits until the virtual pointer and keyboard of a new RemoteDesktop session move GNOME's seat.
 * Mutter adds them on its input thread after {@code Start} and drops what comes before (a click,
 * two keys: measured on mutter 43), and tells no client when they are live; Saccade's Shell
 * extension shows the seat's pointer and modifiers ({@code global.get_pointer()}) in its window
 * list, so the helper moves the pointer one pixel and presses Shift, and watches both arrive (D34).
 * The Shift press is also the first key of the new keyboard, which mutter hands over with its keymap
 * and the focused client never sees. One thread, the helper's, while the backend opens.
 */
final class VirtualDevices {
    /** Clutter's Shift bit in the modifiers of {@code global.get_pointer()}. */
    static final int SHIFT_MASK = 1;
    private static final Pattern POINTER =
        Pattern.compile("\"pointer\":\\{\"px\":(-?\\d+),\"py\":(-?\\d+),\"mods\":(\\d+)}");
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(10);
    /** How long an event may stay unseen before it is sent again (a dropped one is never seen). */
    private static final long RESEND_NS = TimeUnit.MILLISECONDS.toNanos(250);

    private VirtualDevices() {
    }

    /** The seat's pointer {x, y, modifiers} in a window list of the extension; null from an extension without it. */
    static int[] pointer(final String windowList) {
        final Matcher m = POINTER.matcher(windowList);
        return m.find() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3))} : null;
    }

    /**
     * Moves the pointer one pixel inside {@code monitor} ({x, y, width, height}, the stream's) and
     * back, then taps Shift, each seen on the seat before the next; true once all were seen, false
     * when the extension does not show the pointer or {@code timeoutMs} passed.
     */
    static boolean awaitLive(final MutterBus.SaccadeShell shell, final MutterBus.RemoteDesktopSession session,
        final String stream, final int[] monitor, final int shiftEvdev, final long timeoutMs) {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final int[] start = read(shell);
        if (start == null) {
            return false;
        }
        // where the pointer is, kept inside the stream's monitor, and one pixel beside it
        final int home = clamp(start[0], monitor[0], monitor[2]);
        final int y = clamp(start[1], monitor[1], monitor[3]);
        final int x = home > monitor[0] ? home - 1 : home + 1;
        final boolean moved = until(shell, deadline, p -> p == x,
            () -> session.motionAbsolute(stream, x - monitor[0], y - monitor[1]), 0);
        final boolean back = moved && until(shell, deadline, p -> p == home,
            () -> session.motionAbsolute(stream, home - monitor[0], y - monitor[1]), 0);
        final UInt32 shift = new UInt32(shiftEvdev);
        final boolean down = back && until(shell, deadline, mods -> (mods & SHIFT_MASK) != 0,
            () -> session.keycode(shift, true), 2);
        session.keycode(shift, false);
        return down && until(shell, deadline, mods -> (mods & SHIFT_MASK) == 0, () -> { }, 2);
    }

    /** Sends {@code event} (again every {@link #RESEND_NS}) until field {@code index} of the pointer passes. */
    private static boolean until(final MutterBus.SaccadeShell shell, final long deadline, final IntPredicate seen,
        final Runnable event, final int index) {
        long sentAt = System.nanoTime() - RESEND_NS;
        while (System.nanoTime() - deadline < 0) {
            if (System.nanoTime() - sentAt >= RESEND_NS) {
                event.run();
                sentAt = System.nanoTime();
            }
            final int[] p = read(shell);
            if (p != null && seen.test(p[index])) {
                return true;
            }
            LockSupport.parkNanos(POLL_NS);
        }
        return false;
    }

    private static int clamp(final int value, final int origin, final int extent) {
        return (int) Math.max(origin, Math.min((long) origin + extent - 1, value));
    }

    private static int[] read(final MutterBus.SaccadeShell shell) {
        try {
            return pointer(shell.listWindows());
        } catch (final DBusExecutionException e) {
            return null; // reason: the shell is busy or gone; the deadline decides
        }
    }
}
