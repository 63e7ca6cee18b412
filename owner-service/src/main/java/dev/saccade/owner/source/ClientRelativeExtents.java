package dev.saccade.owner.source;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.WindowInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves the accessible objects of Wayland-native applications to desktop coordinates. A GTK app
 * on Wayland cannot know where the compositor shows its window, so {@code GetExtents(SCREEN)}
 * answers relative to the window; XWayland and X11 apps answer in screen coordinates already.
 * Each top-level object is matched to its window like any frame ({@link
 * DesktopSceneComposer#frameWindow}: same pid, then title), and when that window is one of the
 * snapshot's {@link DesktopSnapshot#clientRelativeWindows()} the object and everything below it
 * (the objects up to the next top-level one, in document order) move by the window's position.
 */
final class ClientRelativeExtents {
    private ClientRelativeExtents() {
    }

    static AccessibilitySnapshot translate(final AccessibilitySnapshot semantic, final DesktopSnapshot desktop) {
        if (semantic == null || desktop.clientRelativeWindows().isEmpty()) {
            return semantic;
        }
        final List<WindowInfo> windows = desktop.windows();
        final List<AccessibleApplication> apps = new ArrayList<>(semantic.applications().size());
        boolean moved = false;
        for (final AccessibleApplication app : semantic.applications()) {
            final List<AccessibilityNode> nodes = new ArrayList<>(app.nodes().size());
            int dx = 0;
            int dy = 0;
            for (final AccessibilityNode node : app.nodes()) {
                if (node.parentId() == 0) {
                    final int w = DesktopSceneComposer.frameWindow(windows, node);
                    final boolean relative = w >= 0 && desktop.clientRelativeWindows().contains(windows.get(w).xid());
                    dx = relative ? desktop.contentX(windows.get(w), node.width(), node.height()) : 0;
                    dy = relative ? desktop.contentY(windows.get(w), node.width(), node.height()) : 0;
                }
                if (dx == 0 && dy == 0) {
                    nodes.add(node);
                } else {
                    moved = true;
                    nodes.add(new AccessibilityNode(node.targetId(), node.parentId(), node.role(), node.capabilities(),
                        node.flags(), node.states(), node.x() + dx, node.y() + dy, node.width(), node.height(), node.text(),
                        node.name(), node.pid(), node.busName(), node.objectPath(), node.leafPath()));
                }
            }
            apps.add(new AccessibleApplication(app.busName(), app.pid(), app.name(), nodes, app.complete(),
                app.collection(), app.error(), app.refreshedNs()));
        }
        return moved ? semantic.withApplications(apps) : semantic;
    }
}
