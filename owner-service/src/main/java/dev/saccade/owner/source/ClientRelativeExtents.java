package dev.saccade.owner.source;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.FrameExtents;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.protocol.TargetFlag;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Moves the accessible objects of Wayland-native applications, and of GTK 4 applications
 * anywhere, to desktop coordinates. A GTK app on Wayland cannot know where the compositor shows
 * its window, so {@code GetExtents(SCREEN)} answers relative to the window; GTK 4 answers so on
 * X11 as well ({@link AccessibleApplication#windowRelative()}, D46); other X11 and XWayland apps
 * answer in screen coordinates already. Each top-level object is matched to its window like any
 * frame ({@link DesktopSceneComposer#frameWindow}: same pid, then title), and when that window is
 * one of the snapshot's {@link DesktopSnapshot#clientRelativeWindows()} or the application is
 * window-relative, the object and everything below it (the objects up to the next top-level one,
 * in document order) move by the window's position. A GTK 4 window's surface is larger than its
 * top-level object by the margin it keeps for shadows and resize borders: the margin the window
 * states ({@code _GTK_FRAME_EXTENTS}) where it states one, else centred ({@link #margin}). A GTK 4
 * popover or menu is a surface of its own, placed by the application; its object sits below the
 * widget it points at, and moves with its subtree by the position of its own popup window
 * ({@link PopupSurfaces}, D64); what lies under it is covered. A popover once found so and
 * shown by no popup now is closed, and it and its subtree are left out ({@link PopoverRoots}, D70).
 */
final class ClientRelativeExtents {
    /** Largest margin a window-relative application's surface keeps around its top-level object. */
    static final int MAX_SURFACE_MARGIN_PX = 64;

    private ClientRelativeExtents() {
    }

    static AccessibilitySnapshot translate(final AccessibilitySnapshot semantic, final DesktopSnapshot desktop) {
        return translate(semantic, desktop, null);
    }

    /** As above; {@code roots} (may be null) learns each popover's root and leaves out the closed ones. */
    static AccessibilitySnapshot translate(final AccessibilitySnapshot semantic, final DesktopSnapshot desktop,
        final PopoverRoots roots) {
        if (semantic == null || desktop.clientRelativeWindows().isEmpty() && !anyWindowRelative(semantic)) {
            return semantic;
        }
        final List<WindowInfo> windows = desktop.windows();
        final List<AccessibleApplication> apps = new ArrayList<>(semantic.applications().size());
        boolean moved = false;
        for (final AccessibleApplication app : semantic.applications()) {
            final List<AccessibilityNode> nodes = new ArrayList<>(app.nodes().size());
            final PopupSurfaces popups = app.windowRelative() ? PopupSurfaces.of(desktop.popups(), app.pid()) : null;
            final PopoverRoots known = app.windowRelative() ? roots : null;
            Set<Long> closed = null;
            int dx = 0;
            int dy = 0;
            for (final AccessibilityNode node : app.nodes()) {
                if (node.parentId() == 0) {
                    final int w = DesktopSceneComposer.frameWindow(windows, node);
                    // a Wayland client's surface (its session's content origin) or a GTK 4 app on X11
                    final boolean listed = w >= 0 && desktop.clientRelativeWindows().contains(windows.get(w).xid());
                    final boolean relative = listed || w >= 0 && app.windowRelative();
                    final WindowInfo window = relative ? windows.get(w) : null;
                    final FrameExtents frame = relative && !listed ? desktop.frameExtents(window.xid()) : null;
                    dx = !relative ? 0 : listed ? desktop.contentX(window, node.width(), node.height())
                        : window.x() + (frame != null ? frame.left() : margin(window.width(), node.width()));
                    dy = !relative ? 0 : listed ? desktop.contentY(window, node.width(), node.height())
                        : window.y() + (frame != null ? frame.top() : margin(window.height(), node.height()));
                }
                final long popupShift = popups == null ? PopupSurfaces.NO_SHIFT : popups.shift(node);
                if (known != null && node.parentId() != 0) {
                    if (popups != null && popups.root(node)) {
                        known.remember(node.targetId());
                    } else if (closed != null && closed.contains(node.parentId())
                        || known.known(node.targetId()) && popupShift == PopupSurfaces.NO_SHIFT) {
                        if (closed == null) {
                            closed = new HashSet<>();
                        }
                        closed.add(node.targetId()); // a closed popover's object: not on screen
                        moved = true;
                        continue;
                    }
                }
                final int nx = popupShift == PopupSurfaces.NO_SHIFT ? dx : (int) (popupShift >> 32);
                final int ny = popupShift == PopupSurfaces.NO_SHIFT ? dy : (int) popupShift;
                if (nx == 0 && ny == 0) {
                    nodes.add(node);
                } else {
                    moved = true;
                    nodes.add(new AccessibilityNode(node.targetId(), node.parentId(), node.role(), node.capabilities(),
                        node.flags(), node.states(), node.x() + nx, node.y() + ny, node.width(), node.height(), node.text(),
                        node.name(), node.pid(), node.busName(), node.objectPath(), node.leafPath()));
                }
            }
            if (popups != null) {
                moved |= coverUnderPopups(nodes, popups);
            }
            apps.add(new AccessibleApplication(app.busName(), app.pid(), app.name(), nodes, app.complete(),
                app.collection(), app.error(), app.refreshedNs(), app.windowRelative()));
        }
        return moved ? semantic.withApplications(apps) : semantic;
    }

    /**
     * Marks OCCLUDED, and no longer ACTIONABLE, each object outside the popups whose centre a
     * popup of its application covers (§5.8 rule F: a click there would land in the popup).
     *
     * @return whether any object was marked
     */
    private static boolean coverUnderPopups(final List<AccessibilityNode> nodes, final PopupSurfaces popups) {
        boolean marked = false;
        for (int i = 0; i < nodes.size(); i++) {
            final AccessibilityNode n = nodes.get(i);
            if (n.parentId() != 0 && !popups.inside(n) && !n.hasFlag(TargetFlag.OCCLUDED)
                && popups.covers(n.x() + n.width() / 2, n.y() + n.height() / 2)) {
                nodes.set(i, new AccessibilityNode(n.targetId(), n.parentId(), n.role(), n.capabilities(),
                    (n.flags() | TargetFlag.OCCLUDED) & ~TargetFlag.ACTIONABLE, n.states(), n.x(), n.y(), n.width(),
                    n.height(), n.text(), n.name(), n.pid(), n.busName(), n.objectPath(), n.leafPath()));
                marked = true;
            }
        }
        return marked;
    }

    /**
     * Where a top-level object of {@code inner} pixels lies in a window of {@code outer} pixels
     * (one axis): centred, when the window is larger by at most twice {@link #MAX_SURFACE_MARGIN_PX};
     * else at its origin.
     */
    static int margin(final int outer, final int inner) {
        final int spare = outer - inner;
        return spare > 0 && spare <= 2 * MAX_SURFACE_MARGIN_PX ? spare / 2 : 0;
    }

    private static boolean anyWindowRelative(final AccessibilitySnapshot semantic) {
        for (final AccessibleApplication app : semantic.applications()) {
            if (app.windowRelative()) {
                return true;
            }
        }
        return false;
    }
}
