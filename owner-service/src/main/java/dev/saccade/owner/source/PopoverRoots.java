package dev.saccade.owner.source;

import java.util.HashSet;
import java.util.Set;

/**
 * The objects once found as the root of a popup window (D64), so that a popover that closed is
 * recognised without one (D70). GTK 4.8 goes on reporting a closed popover's objects as visible
 * for a while (0.5 to 18 s measured with gnome-calculator's mode menu), and a read begun while it
 * was open is composed after its window went; with no popup to move them by, its items would
 * stand at the menu button's origin over the main window, actionable and wrong. Held by one
 * composer, used under its lock.
 */
final class PopoverRoots {
    /** Past this many roots the memory starts again: a few popovers per application is usual. */
    static final int MAX_ROOTS = 1_024;

    private final Set<Long> roots = new HashSet<>();

    void remember(final long targetId) {
        if (roots.size() >= MAX_ROOTS && !roots.contains(targetId)) {
            roots.clear();
        }
        roots.add(targetId);
    }

    boolean known(final long targetId) {
        return roots.contains(targetId);
    }
}
