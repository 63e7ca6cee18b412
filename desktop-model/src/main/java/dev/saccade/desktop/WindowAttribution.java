package dev.saccade.desktop;

import java.util.List;

/**
 * Which window an accessible object belongs to when nothing but its position and pid say so:
 * the composer's fallback and the pixel source's test for a secure field, one rule for both.
 */
public final class WindowAttribution {
    private WindowAttribution() {
    }

    /**
     * Stacking index of the window an accessible object lies in, by position only (the fallback of the
     * composer's frame matching): among windows of its application's pid the topmost holding its
     * centre, else the topmost of that pid; without a pid the topmost window holding its centre;
     * -1 if none.
     */
    public static int windowOf(final List<WindowInfo> windows, final AccessibilityNode node) {
        final int cx = node.x() + node.width() / 2;
        final int cy = node.y() + node.height() / 2;
        int samePid = -1;
        for (int i = windows.size() - 1; i >= 0; i--) {
            final WindowInfo w = windows.get(i);
            final boolean holds = cx >= w.x() && cx < w.x() + w.width() && cy >= w.y() && cy < w.y() + w.height();
            if (node.pid() != 0 && w.pid() == node.pid()) {
                if (holds) {
                    return i;
                }
                if (samePid < 0) {
                    samePid = i;
                }
            } else if (node.pid() == 0 && holds) {
                return i;
            }
        }
        return samePid;
    }
}
