package dev.saccade.desktop;

import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import java.util.Objects;

/**
 * One accessible object as a semantic target.
 *
 * @param targetId stable id ({@link dev.saccade.desktop.TargetIds#ACCESSIBILITY_NAMESPACE}):
 *     the same object keeps it across refreshes while its application runs; never 0
 * @param parentId the parent object's target id; 0 for the application's top objects (windows)
 * @param role a {@link Role} code
 * @param capabilities {@link TargetCapability} bits
 * @param flags {@link TargetFlag} bits (no SOURCE bits: the scene composer adds those)
 * @param states {@link dev.saccade.protocol.TargetState} bits (checked, selected, focused ...)
 * @param x left edge in screen pixels ({@code Component.GetExtents(SCREEN)}); 0 when off screen
 * @param y top edge in screen pixels
 * @param width width in pixels; 0 when unknown or off screen
 * @param height height in pixels
 * @param text the text lane: the name, or for text roles the content (at most the source's
 *     text limit, flagged TEXT_TRUNCATED beyond); always "" for a password field
 * @param name the accessible name (a password field's label, never its content)
 * @param pid the application's process id; 0 if the bus would not say
 * @param busName the application's unique name on the accessibility bus
 * @param objectPath the object's D-Bus path in that application, for semantic invoke
 * @param leafPath where its keyboard focus and text live: the absorbed child's path for a
 *     wrapper that took in its one leaf ({@link #absorbing}, a scroll pane around a text view),
 *     else {@code objectPath}
 */
public record AccessibilityNode(
    long targetId,
    long parentId,
    int role,
    int capabilities,
    int flags,
    int states,
    int x,
    int y,
    int width,
    int height,
    String text,
    String name,
    long pid,
    String busName,
    String objectPath,
    String leafPath) {

    /** A node that is its own leaf. */
    public AccessibilityNode(final long targetId, final long parentId, final int role, final int capabilities,
        final int flags, final int states, final int x, final int y, final int width, final int height,
        final String text, final String name, final long pid, final String busName, final String objectPath) {
        this(targetId, parentId, role, capabilities, flags, states, x, y, width, height, text, name, pid, busName,
            objectPath, objectPath);
    }

    public AccessibilityNode {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(busName, "busName");
        Objects.requireNonNull(objectPath, "objectPath");
        Objects.requireNonNull(leafPath, "leafPath");
    }

    public boolean hasFlag(final int flag) {
        return (flags & flag) != 0;
    }

    public boolean hasCapability(final int capability) {
        return (capabilities & capability) != 0;
    }

    public boolean hasState(final int state) {
        return (states & state) != 0;
    }

    /**
     * Whether an agent can act on this object: not a frame (the window's own target already
     * stands for it), enabled, with a capability beyond pointing at it or selecting its text. A
     * tree without one (GTK 4's disabled frame, a frame whose content never arrived) says nothing
     * an agent can use, and pixels serve its window (D52).
     */
    public boolean actionable() {
        return role != Role.WINDOW && !hasFlag(TargetFlag.DISABLED)
            && (capabilities & ~(TargetCapability.POINTER_MOVE | TargetCapability.TEXT_SELECT)) != 0;
    }

    /**
     * This node (a nameless row wrapper) with the text, name, capabilities and states of its one
     * leaf child, which the scene then leaves out: the wrapper is the object the toolkit selects.
     */
    public AccessibilityNode absorbing(final AccessibilityNode child) {
        return new AccessibilityNode(targetId, parentId, role, capabilities | child.capabilities,
            flags | (child.flags & (TargetFlag.TEXT_TRUNCATED | TargetFlag.TEXT_REDACTED | TargetFlag.SECURE)),
            states | child.states, x, y, width, height, child.text, child.name, pid, busName, objectPath,
            child.leafPath);
    }

    /** The same node under another parent (a layout container above it was left out). */
    public AccessibilityNode withParent(final long parent) {
        return new AccessibilityNode(targetId, parent, role, capabilities, flags, states, x, y, width, height, text, name,
            pid, busName, objectPath, leafPath);
    }

    /** The point {@code (x, y)} lies in the bounds (right and bottom edges excluded). */
    public boolean contains(final int px, final int py) {
        return px >= x && py >= y && px < x + width && py < y + height;
    }

    @Override
    public String toString() {
        return Role.name(role) + "[id=" + Long.toHexString(targetId) + ", text=\"" + text + "\", " + x + "," + y + " "
            + width + "x" + height + ", caps=0x" + Integer.toHexString(capabilities) + ", flags=0x"
            + Integer.toHexString(flags) + ", states=0x" + Integer.toHexString(states) + ", " + busName + objectPath + "]";
    }
}
