package dev.saccade.owner.action;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * The input commands of one plan, in order. Coordinates are desktop Q8. Written by the owner
 * thread into the executor's plan buffer; nothing reaches the input helper before
 * {@link InputExecutor#submit()}.
 */
public interface PlanWriter {
    void move(int xQ8, int yQ8);

    /**
     * A move that glides to the point over {@code durationNs}, in paced steps (§5.15); 0 is
     * {@link #move(int, int)}. A writer without timed input ignores the duration.
     */
    default void move(final int xQ8, final int yQ8, final long durationNs) {
        move(xQ8, yQ8);
    }

    /** A press whose hold ends by itself after {@code leaseNs} (§5.15); 0 holds until released. */
    default void buttonDown(final int button, final long leaseNs) {
        buttonDown(button);
    }

    /** A scroll spread over {@code durationNs} (§5.15); 0 scrolls at once. */
    default void scroll(final int dxQ8, final int dyQ8, final long durationNs) {
        scroll(dxQ8, dyQ8);
    }

    void buttonDown(int button);

    void buttonUp(int button);

    /** SHIFT, CONTROL, ALT, META go down in that order. */
    void modifiersDown(int modifiers);

    /** ... and up in reverse. */
    void modifiersUp(int modifiers);

    /** A USB HID keyboard-page usage (§5.10). */
    void keyDown(int usage);

    void keyUp(int usage);

    void scroll(int dxQ8, int dyQ8);

    /**
     * Strict UTF-8 text at {@code at} of {@code store}, {@code length} bytes, for window
     * {@code windowId} (0: whichever has focus).
     */
    void text(BytesStore<?, ?> store, long at, int length, long windowId);

    void windowActivate(long windowId);

    void windowCycle(boolean backward);

    /** Marks the end of batch action {@code index}: the helper reports progress per action. */
    void actionEnd(int index);
}
