package dev.saccade.helper.backend;

/**
 * What the platform reports about its pointer (the master pointer on X11): position in desktop
 * pixels, the {@link dev.saccade.protocol.Button} bits and {@link dev.saccade.protocol.Modifier}
 * bits held right now, by anyone. A reusable holder filled by
 * {@link InputBackend#queryPointer(PointerState)}; one writer thread.
 */
public final class PointerState {
    private int x;
    private int y;
    private int buttons;
    private int modifiers;

    /** Fills the holder; called by backends. */
    public PointerState set(final int x, final int y, final int buttons, final int modifiers) {
        this.x = x;
        this.y = y;
        this.buttons = buttons;
        this.modifiers = modifiers;
        return this;
    }

    public int x() {
        return x;
    }

    public int y() {
        return y;
    }

    public int buttons() {
        return buttons;
    }

    public int modifiers() {
        return modifiers;
    }

    @Override
    public String toString() {
        return "PointerState[x=" + x + ", y=" + y + ", buttons=0x" + Integer.toHexString(buttons)
            + ", modifiers=0x" + Integer.toHexString(modifiers) + "]";
    }
}
