package dev.saccade.helper.backend;

/**
 * Told by a backend of the key presses and key code bindings it makes inside one compound call
 * ({@link InputBackend#typeText}, {@link InputBackend#restoreKeymap}), so that nothing is pressed
 * or rebound without being recorded. {@link dev.saccade.ipc.link.HeldInputLedger} is the recorder that matters.
 *
 * <p>Order contract: {@link #keyDown} before the press is emitted, {@link #keyUp} only after the
 * release was flushed to the platform; {@link #keyCodeBound} before the binding request,
 * {@link #keyCodeRestored} after the restoring request was flushed. So a recorder always holds a
 * superset of what the platform holds, even if the process dies in between.
 */
public interface HeldInputRecorder {
    /** Records nothing. */
    HeldInputRecorder NONE = new HeldInputRecorder() {
        @Override
        public void keyDown(final int keyCode) {
        }

        @Override
        public void keyUp(final int keyCode) {
        }

        @Override
        public void keyCodeBound(final int keyCode) {
        }

        @Override
        public void keyCodeRestored(final int keyCode) {
        }
    };

    void keyDown(int keyCode);

    void keyUp(int keyCode);

    void keyCodeBound(int keyCode);

    void keyCodeRestored(int keyCode);
}
