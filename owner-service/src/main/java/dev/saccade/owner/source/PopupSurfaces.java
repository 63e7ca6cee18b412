package dev.saccade.owner.source;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.protocol.Role;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The popup windows of one window-relative application and the accessible subtrees drawn in them
 * (D64). GTK 4 on X11 shows each popover and menu in an override-redirect window of its own, at a
 * place it chooses; its accessible object is a child of the widget it points at, and answers
 * extents at that widget's origin with the size of its surface, its descendants relative to the
 * same origin. So an object that is not a top-level one, of a container role and exactly the size
 * of one of the application's mapped popups, is that popup's root: it and its subtree move by the
 * popup window's position less the object's own. Objects come in document order, parents first,
 * so one pass finds each subtree; the application's other objects under a popup it shows are
 * covered by it ({@link #covers}). One instance serves one application's nodes, once.
 */
final class PopupSurfaces {
    /** {@link #shift}: the object is in no popup's subtree. */
    static final long NO_SHIFT = Long.MIN_VALUE;

    private final List<WindowInfo> popups;
    private final boolean[] used;
    /**
     * Per popup, what it draws on the desktop (x, y, width, height): the union of its root
     * object's children (GtkPopoverContent), inside the window's margin for the arrow and the
     * shadow; the whole window while none is seen.
     */
    private final int[][] drawn;
    /** The popup index of each root object found. */
    private final Map<Long, Integer> rootPopup = new HashMap<>();
    /** The shift of each object found inside a popup so far, packed as by {@link #pack}. */
    private final Map<Long, Long> shiftById = new HashMap<>();

    private PopupSurfaces(final List<WindowInfo> popups) {
        this.popups = popups;
        this.used = new boolean[popups.size()];
        this.drawn = new int[popups.size()][];
    }

    /** The mapped popups of process {@code pid}, or null when it has none. */
    static PopupSurfaces of(final List<WindowInfo> popups, final long pid) {
        List<WindowInfo> own = null;
        for (final WindowInfo w : popups) {
            if (w.pid() == pid && w.width() > 0 && w.height() > 0) {
                if (own == null) {
                    own = new ArrayList<>(2);
                }
                own.add(w);
            }
        }
        return own == null ? null : new PopupSurfaces(own);
    }

    /**
     * How far {@code node} (window-relative, as the application answered) moves to the desktop
     * when it lies in a popup, packed x high and y low; {@link #NO_SHIFT} when it does not.
     * Called for each of the application's nodes in document order.
     */
    long shift(final AccessibilityNode node) {
        if (node.parentId() == 0) {
            return NO_SHIFT; // a top-level object moves by its own window
        }
        final Long inherited = shiftById.get(node.parentId());
        if (inherited != null) {
            shiftById.put(node.targetId(), inherited);
            final Integer popup = rootPopup.get(node.parentId());
            if (popup != null && node.width() > 0 && node.height() > 0) {
                unite(popup, node.x() + (int) (inherited >> 32), node.y() + (int) inherited.longValue(), node.width(),
                    node.height());
            }
            return inherited;
        }
        if (!container(node.role())) {
            return NO_SHIFT;
        }
        // the topmost unclaimed popup of exactly its size: the one shown last when two match
        for (int i = popups.size() - 1; i >= 0; i--) {
            final WindowInfo w = popups.get(i);
            if (!used[i] && w.width() == node.width() && w.height() == node.height()) {
                used[i] = true;
                rootPopup.put(node.targetId(), i);
                final long shift = pack(w.x() - node.x(), w.y() - node.y());
                shiftById.put(node.targetId(), shift);
                return shift;
            }
        }
        return NO_SHIFT;
    }

    /** Whether {@link #shift} found {@code node} to be the root of a popup. */
    boolean root(final AccessibilityNode node) {
        return rootPopup.containsKey(node.targetId());
    }

    /** Whether {@code node} was found inside a popup by {@link #shift}. */
    boolean inside(final AccessibilityNode node) {
        return shiftById.containsKey(node.targetId());
    }

    /**
     * Whether what a popup some object was found in draws covers the point: the application's own
     * objects outside it that lie there are under it, and a click there lands in the popup. A
     * popup no object matched (a tooltip) covers nothing here.
     */
    boolean covers(final int px, final int py) {
        for (int i = 0; i < popups.size(); i++) {
            if (!used[i]) {
                continue;
            }
            final WindowInfo w = popups.get(i);
            final int[] r = drawn[i] != null ? drawn[i] : new int[] {w.x(), w.y(), w.width(), w.height()};
            if (px >= r[0] && px < r[0] + r[2] && py >= r[1] && py < r[1] + r[3]) {
                return true;
            }
        }
        return false;
    }

    private void unite(final int popup, final int x, final int y, final int width, final int height) {
        final int[] r = drawn[popup];
        if (r == null) {
            drawn[popup] = new int[] {x, y, width, height};
            return;
        }
        final int right = Math.max(r[0] + r[2], x + width);
        final int bottom = Math.max(r[1] + r[3], y + height);
        r[0] = Math.min(r[0], x);
        r[1] = Math.min(r[1], y);
        r[2] = right - r[0];
        r[3] = bottom - r[1];
    }

    static long pack(final int dx, final int dy) {
        return ((long) dx << 32) | (dy & 0xFFFF_FFFFL);
    }

    /**
     * Roles a popover's root object takes: GtkPopoverMenu is a menu, a plain GtkPopover a filler
     * (no role of ours), a window or dialog elsewhere; never a control, whose size may equal a
     * tooltip's by chance.
     */
    private static boolean container(final int role) {
        return role == Role.MENU || role == Role.UNKNOWN || role == Role.DIALOG || role == Role.WINDOW;
    }
}
