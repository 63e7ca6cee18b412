package dev.saccade.helper;

import dev.saccade.helper.backend.PointerState;

/**
 * Whether the pointer events a plan sent have reached the pointer (D68). A window manager that
 * focuses on click (openbox, xfwm4, mutter on X11) grabs the buttons of client windows
 * synchronously: the X server freezes the pointer at the press until the window manager lets the
 * press through, and the motion and release behind it wait in the server's queue. Keys are not
 * frozen, so a key sent after the click reached the application first whenever the window manager
 * was slow to answer: under load a value typed into a clicked Calc cell landed in the cell the
 * cursor was on before. The server's pointer state shows the queued events only once processed,
 * so the plan waits, before its next key and before it completes, until the pointer holds no
 * button it released: the release is the last event of a click, so the press and the motion
 * before it have gone to the application too. (The motion alone is not looked at: X and the
 * compositors keep the pointer inside the screen, so where it stands says little about whether a
 * move arrived; and every plan ends only once its releases did, so no click of ours holds a later
 * move back.) Wayland backends report the pointer they drive, which has always arrived. One thread
 * (the helper's).
 */
final class PointerArrival {
    /** The longest wait for a held-back pointer; a release still queued then fails the plan. */
    static final long WAIT_NS = 2_000_000_000L;
    /** Between two looks at the pointer while it is held back. */
    static final long POLL_NS = 1_000_000L;

    private int released;

    /** A press of {@code button} went out: its earlier release is behind it in the queue. */
    void pressed(final int button) {
        released &= ~button;
    }

    /** A release of {@code button} went out. */
    void released(final int button) {
        released |= button;
    }

    boolean pending() {
        return released != 0;
    }

    /**
     * The pointer as the server has it now, against what we sent: whether no released button is
     * still down (then nothing is pending any more); false while a release is queued.
     */
    boolean arrived(final PointerState state) {
        if ((state.buttons() & released) != 0) {
            return false;
        }
        clear();
        return true;
    }

    void clear() {
        released = 0;
    }
}
