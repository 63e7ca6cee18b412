package dev.saccade.helper.backend;

/**
 * Told of real user input: events from an input device other than the ones synthetic input
 * comes through (X11: the "XTEST" slave devices). The helper answers by releasing everything it
 * holds, cancelling the plan in flight and setting USER_OVERRIDE (spec §5.11).
 *
 * <p>Called on the monitor's own thread, once per raw event (motion comes often): hand over with
 * a volatile store or a counter, never block. Must not throw.
 */
@FunctionalInterface
public interface UserInputListener {
    int KEY = 1;
    int BUTTON = 2;
    int MOTION = 3;
    int TOUCH = 4;

    /**
     * @param kind           {@link #KEY}, {@link #BUTTON}, {@link #MOTION} or {@link #TOUCH}.
     * @param sourceDeviceId the platform's id of the device that produced it (X11: XI2 sourceid).
     * @param detail         key code or button number; 0 for motion.
     * @param serverTimeMs   the platform's event time stamp (X11: server milliseconds, wrapping).
     */
    void onUserInput(int kind, int sourceDeviceId, int detail, long serverTimeMs);
}
