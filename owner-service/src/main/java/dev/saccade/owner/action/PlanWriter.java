package dev.saccade.owner.action;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * The input commands of one plan, in order. Coordinates are desktop Q8. Written by the owner
 * thread into the executor's plan buffer; nothing reaches the input helper before
 * {@link InputExecutor#submit()}.
 */
public interface PlanWriter {
    void move(int xQ8, int yQ8);

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
