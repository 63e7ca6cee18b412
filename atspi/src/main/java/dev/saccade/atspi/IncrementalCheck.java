package dev.saccade.atspi;

import static dev.saccade.atspi.AtspiMapping.I_COMPONENT;
import static dev.saccade.atspi.AtspiMapping.S_SHOWN;
import static dev.saccade.atspi.ReplyKind.K_CHAR_COUNT;
import static dev.saccade.atspi.ReplyKind.K_EXTENTS;
import static dev.saccade.atspi.ReplyKind.K_MATCH_ALL;
import static dev.saccade.atspi.ReplyKind.K_MATCH_INTERFACE;
import static dev.saccade.atspi.ReplyKind.K_MATCH_RARE;
import static dev.saccade.atspi.ReplyKind.K_MATCH_ROLE;
import static dev.saccade.atspi.ReplyKind.K_MATCH_STATE;
import static dev.saccade.atspi.ReplyKind.K_NAME;
import static dev.saccade.atspi.ReplyKind.K_PROPERTIES;
import static dev.saccade.atspi.ReplyKind.K_STATE;
import static dev.saccade.atspi.ReplyKind.K_WINDOW_EXTENTS;

import dev.saccade.desktop.AccessibilityNode;
import java.util.List;
import org.freedesktop.dbus.types.UInt32;

/**
 * The incremental reads of an application whose last read was whole (D19): CHECK asks where its
 * windows are and ends the refresh if none moved; TOUCH re-reads only the objects events named,
 * in the last tree, and says when that is not enough and the application must be read whole.
 * Asks and reads; {@link AppRefresh} sends the batches and moves between stages.
 */
final class IncrementalCheck {
    private final KnownApp app;
    private final CallChannel channel;
    private final DraftTree tree;
    /** TOUCH: the indexes in the last tree of the objects to re-read; null otherwise. */
    private final int[] touch;
    private final boolean walking;
    private final int maxTextChars;

    IncrementalCheck(
        final KnownApp app, final CallChannel channel, final DraftTree tree, final int[] touch, final boolean walking,
        final int maxTextChars) {
        this.app = app;
        this.channel = channel;
        this.tree = tree;
        this.touch = touch;
        this.walking = walking;
        this.maxTextChars = maxTextChars;
    }

    /** {@code GetExtents} of each top-level object of the last refresh that had bounds. */
    void askWindows(final CallBatch batch) {
        final List<AccessibilityNode> last = app.nodes;
        for (int i = 0, n = last.size(); i < n; i++) {
            final AccessibilityNode node = last.get(i);
            if (node.parentId() == 0 && (node.width() > 0 || node.height() > 0)) {
                channel.call(batch, node.objectPath(), AtspiBus.COMPONENT, "GetExtents", "u", K_WINDOW_EXTENTS, i,
                    new UInt32(0));
            }
        }
    }

    /** CHECK's answers: true when every window answered and is where the last tree has it. */
    boolean windowsUnmoved(final CallBatch batch) {
        final List<AccessibilityNode> last = app.nodes;
        for (final Reply call : batch.calls) {
            if (!call.answered() || call.failed() || !sameExtents(last.get(call.index()), call.value())) {
                return false;
            }
        }
        return true;
    }

    /** TOUCH's calls for the touched objects, with the windows as CHECK asks them; false when there is nothing to ask. */
    boolean askTouched(final CallBatch batch) {
        for (final int i : touch) {
            final DraftTree.Draft d = tree.get(i);
            if (d.dropped) {
                continue;
            }
            channel.call(batch, d.path, AtspiBus.ACCESSIBLE, "GetState", null, K_STATE, i);
            if (walking) {
                channel.call(batch, d.path, AtspiBus.PROPERTIES, "Get", "ss", K_NAME, i, AtspiBus.ACCESSIBLE, "Name");
            } else {
                channel.call(batch, d.path, AtspiBus.PROPERTIES, "GetAll", "s", K_PROPERTIES, i, AtspiBus.ACCESSIBLE);
            }
            if ((d.states & S_SHOWN) != 0 && (!walking || (d.interfaces & I_COMPONENT) != 0)) {
                channel.call(batch, d.path, AtspiBus.COMPONENT, "GetExtents", "u", K_EXTENTS, i, new UInt32(0));
            }
            if (AppRefresh.wantsContent(d) && maxTextChars > 0) {
                channel.call(batch, d.path, AtspiBus.PROPERTIES, "Get", "ss", K_CHAR_COUNT, i, AtspiBus.TEXT,
                    "CharacterCount");
            }
        }
        if (batch.size() == 0) {
            return false;
        }
        // The windows too, as CHECK asks them: a window the window manager moved sends no event,
        // and a TOUCH that re-read a moved frame alone would leave its other objects where they
        // were while the next CHECK, finding the frame where the tree has it, kept them there.
        askWindows(batch);
        return true;
    }

    /**
     * TOUCH's answers, applied to the last tree; false when the application must be read whole:
     * an object gone or not answering as before, shown or hidden, or it or a window moved or
     * resized (what lies in it moved too, and no event said so).
     */
    boolean applyTouched(final CallBatch batch) {
        for (final Reply call : batch.calls) {
            final int kind = call.kind();
            if (kind == K_MATCH_ALL || kind == K_MATCH_ROLE || kind == K_MATCH_STATE || kind == K_MATCH_INTERFACE
                || kind == K_MATCH_RARE) {
                continue; // a subtree's listing, read by the subtree read (D61)
            }
            if (!call.answered() || call.failed()) {
                return false;
            }
            if (call.kind() == K_WINDOW_EXTENTS ? !sameExtents(app.nodes.get(call.index()), call.value())
                : call.kind() == K_EXTENTS && !sameExtents(call.value(), tree.get(call.index()))) {
                return false;
            }
            final DraftTree.Draft d = tree.get(call.index());
            switch (call.kind()) {
                case K_STATE -> {
                    final Object words = call.value();
                    final int states = AtspiMapping.states(AtspiCall.element(words, 0, 0), AtspiCall.element(words, 1, 0),
                        app.leniency());
                    if (((states ^ d.states) & S_SHOWN) != 0) {
                        return false; // shown or hidden: its subtree's extents are not in the tree
                    }
                    d.states = states;
                }
                case K_NAME -> d.name = call.value() instanceof String name ? name : d.name;
                case K_WINDOW_EXTENTS, K_EXTENTS -> {
                    // where they were (above)
                }
                case K_CHAR_COUNT -> {
                    tree.applyDetail(call.kind(), call.index(), call);
                    d.content = null;
                }
                default -> tree.applyDetail(call.kind(), call.index(), call);
            }
        }
        return true;
    }

    private static boolean sameExtents(final AccessibilityNode node, final Object box) {
        return sameExtents(box, node.x(), node.y(), node.width(), node.height());
    }

    private static boolean sameExtents(final Object box, final DraftTree.Draft d) {
        return d.hasExtents && sameExtents(box, d.x, d.y, d.width, d.height);
    }

    private static boolean sameExtents(final Object box, final int x, final int y, final int width, final int height) {
        return AtspiCall.length(box) == 4 && AtspiCall.element(box, 0, 0) == x && AtspiCall.element(box, 1, 0) == y
            && AtspiCall.element(box, 2, 0) == width && AtspiCall.element(box, 3, 0) == height;
    }
}
