package dev.saccade.owner.source;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.TargetIds;
import dev.saccade.desktop.WindowAttribution;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.pixel.Geometry;
import dev.saccade.pixel.PixelElement;
import dev.saccade.pixel.PixelSnapshot;
import dev.saccade.pixel.PixelWindow;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The PIXEL targets of a scene and their fusion with the accessible ones. A pixel element
 * becomes a target of its window (parented to it, positioned from the window's current place,
 * OCCLUDED where windows above cover it) with CLICK and POINTER_MOVE. Where pixels serve a
 * window that also has a tree ({@code saccade.owner.pixel.serve=all}), an element that an
 * accessible object of the same window matches (IoU ≥ 0.5 and the same text, or IoU ≥ 0.7) is
 * not added: the accessible target carries the PIXEL bit as well, so {@code fused} lists it
 * once and {@code pixel} still finds it.
 */
final class PixelTargets {
    static final double MATCH_IOU = 0.5;
    static final double MATCH_IOU_WITHOUT_TEXT = 0.7;

    private PixelTargets() {
    }

    /** Accessible nodes pixels confirm (null when none), and the pixel ids they replace into {@code replaced}. */
    static boolean[] confirmed(final List<WindowInfo> windows, final AccessibilitySnapshot semantic,
        final PixelSnapshot pixels, final Set<Long> replaced) {
        if (semantic == null || pixels == null || pixels.windows().isEmpty()) {
            return null;
        }
        final List<AccessibilityNode> nodes = semantic.nodes();
        boolean[] out = null;
        for (int n = 0; n < nodes.size(); n++) {
            final AccessibilityNode node = nodes.get(n);
            final int index = WindowAttribution.windowOf(windows, node);
            if (index < 0 || node.width() <= 0 || node.height() <= 0) {
                continue;
            }
            final WindowInfo w = windows.get(index);
            final PixelWindow reading = pixels.windows().get(w.xid());
            if (reading == null) {
                continue;
            }
            for (final PixelElement e : reading.elements()) {
                final double iou = Geometry.iou(w.x() + e.x(), w.y() + e.y(), e.width(), e.height(),
                    node.x(), node.y(), node.width(), node.height());
                if (iou >= MATCH_IOU_WITHOUT_TEXT || iou >= MATCH_IOU && e.text().equals(node.text().strip())) {
                    if (out == null) {
                        out = new boolean[nodes.size()];
                    }
                    out[n] = true;
                    replaced.add(e.targetId());
                }
            }
        }
        return out;
    }

    /** Adds the pixel targets; returns the next order, or -1 when the packet is full. */
    static int add(final ScenePacket p, final List<WindowInfo> windows, final List<MonitorInfo> monitors,
        final PixelSnapshot pixels, final Set<Long> replaced, final int firstOrder, final int[] safe) {
        int order = firstOrder;
        if (pixels.incomplete()) {
            p.markIncomplete(); // a deadline or a budget cut a window's reading
        }
        for (int i = windows.size() - 1; i >= 0; i--) {
            final WindowInfo w = windows.get(i);
            final PixelWindow reading = pixels.windows().get(w.xid());
            if (reading == null || reading.width() != w.width() || reading.height() != w.height()) {
                continue; // resized since it was read: its new reading comes shortly
            }
            for (final PixelElement e : reading.elements()) {
                if (replaced.contains(e.targetId())) {
                    continue;
                }
                final int x = w.x() + e.x();
                final int y = w.y() + e.y();
                int flags = e.flags() | TargetFlag.ACTIONABLE;
                if (!DesktopSceneComposer.safePoint(windows, i, x, y, e.width(), e.height(), safe)) {
                    flags = (flags | TargetFlag.OCCLUDED) & ~TargetFlag.ACTIONABLE;
                    safe[0] = x + e.width() / 2;
                    safe[1] = y + e.height() / 2;
                }
                final TargetFlyweight t = p.addTarget();
                if (t == null) {
                    return -1;
                }
                t.targetId(e.targetId())
                    .parentId(TargetIds.window(w.xid()))
                    .windowId(w.xid())
                    .displayId(DesktopSceneComposer.displayAt(monitors, x + e.width() / 2L, y + e.height() / 2L))
                    .bounds(x * RectQ8.ONE, y * RectQ8.ONE, e.width() * RectQ8.ONE, e.height() * RectQ8.ONE)
                    .safePoint(safe[0] * RectQ8.ONE + RectQ8.ONE / 2, safe[1] * RectQ8.ONE + RectQ8.ONE / 2)
                    .capabilityBits(TargetCapability.CLICK | TargetCapability.POINTER_MOVE)
                    .flags(flags)
                    .role(e.role())
                    .sourceBits(SourceBit.PIXEL)
                    .confidenceQ16(e.confidenceQ16())
                    .order(order++);
                final byte[] text = e.text().getBytes(StandardCharsets.UTF_8);
                p.text(t, text, 0, text.length);
            }
        }
        return order;
    }

    static Set<Long> newReplacedSet() {
        return new HashSet<>();
    }
}
