package dev.saccade.cli;

import dev.saccade.helper.backend.mutter.MutterBackend;
import java.util.concurrent.locks.LockSupport;

/**
 * A process that opens a RemoteDesktop session on the GNOME session bus given, presses the key
 * code given (XKB, evdev + 8) through it, prints "held" and waits to be killed: the holder whose
 * SIGKILL {@link GnomeDesktopTest} proves mutter releases.
 */
public final class MutterHoldMain {
    private MutterHoldMain() {
    }

    public static void main(final String[] args) throws Exception {
        final MutterBackend backend = MutterBackend.open(args[0]);
        if (backend.keyCode(Integer.parseInt(args[1]), true) != 0) {
            System.out.println("failed");
            return;
        }
        System.out.println("held");
        System.out.flush();
        while (true) {
            LockSupport.park();
        }
    }
}
