package dev.saccade.pcp;

import dev.saccade.client.DecimalU64;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * One scene generation as PCP sees it: the records of an observe completion of the agent
 * protocol, decoded once into plain objects (PCP runs on its own threads; the owner thread's
 * no-allocation rule does not reach here). Surfaces are the WINDOW targets; an element's id is
 * {@code el-<target_id>} and a surface's {@code surface-<window_id>}, both decimal (64-bit values
 * cross JSON as decimal strings).
 */
final class SceneView {
    final long generation;
    final long activeWindowId;
    final long foregroundPid;
    final List<Target> targets;
    final Map<Long, Target> byId = new LinkedHashMap<>();

    private SceneView(final long generation, final long activeWindowId, final long foregroundPid, final List<Target> targets) {
        this.generation = generation;
        this.activeWindowId = activeWindowId;
        this.foregroundPid = foregroundPid;
        this.targets = Collections.unmodifiableList(targets);
        for (final Target t : targets) {
            byId.put(t.id, t);
        }
    }

    /** Decodes a validated observe completion at {@code at}. */
    static SceneView decode(final BytesStore<?, ?> bytes, final long at) {
        final CompletionFlyweight c = new CompletionFlyweight().wrap(bytes, at);
        final TargetFlyweight t = new TargetFlyweight();
        final List<Target> targets = new ArrayList<>((int) c.targetCount());
        for (long i = 0; i < c.targetCount(); i++) {
            t.wrap(bytes, at + c.targetsOffset() + i * c.targetStride());
            final byte[] text = new byte[(int) t.textSize()];
            bytes.read(at + t.textOffset(), text, 0, text.length);
            targets.add(new Target(t.targetId(), t.parentId(), t.windowId(), t.boundsXQ8() / RectQ8.ONE,
                t.boundsYQ8() / RectQ8.ONE, t.boundsWidthQ8() / RectQ8.ONE, t.boundsHeightQ8() / RectQ8.ONE,
                t.capabilityBits(), t.flags(), t.role(), t.sourceBits(), t.states(), new String(text, StandardCharsets.UTF_8)));
        }
        return new SceneView(c.generation().generation(), c.generation().windowId(), c.generation().processId(), targets);
    }

    static String surfaceId(final long windowId) {
        return "surface-" + DecimalU64.format(windowId);
    }

    static String elementId(final long targetId) {
        return "el-" + DecimalU64.format(targetId);
    }

    /** The window id of a surface id, or -1 when it is not one of ours. */
    static long windowIdOf(final String surfaceId) {
        return parse(surfaceId, "surface-");
    }

    /** The target id of an element id, or -1. */
    static long targetIdOf(final String elementId) {
        return parse(elementId, "el-");
    }

    private static long parse(final String id, final String prefix) {
        if (id == null || !id.startsWith(prefix) || !DecimalU64.valid(id.substring(prefix.length()))) {
            return -1;
        }
        return DecimalU64.parse(id.substring(prefix.length()));
    }

    /** The WINDOW targets, topmost first. */
    List<Target> windows() {
        final List<Target> out = new ArrayList<>();
        for (final Target t : targets) {
            if (t.role == Role.WINDOW) {
                out.add(t);
            }
        }
        return out;
    }

    Target window(final long windowId) {
        for (final Target t : targets) {
            if (t.role == Role.WINDOW && t.windowId == windowId) {
                return t;
            }
        }
        return null;
    }

    List<Target> children(final long parentId) {
        final List<Target> out = new ArrayList<>();
        for (final Target t : targets) {
            if (t.parentId == parentId && t.id != parentId) {
                out.add(t);
            }
        }
        return out;
    }

    /** One target record. Bounds in desktop pixels. */
    static final class Target {
        final long id;
        final long parentId;
        final long windowId;
        final int x;
        final int y;
        final int width;
        final int height;
        final int capabilities;
        final int flags;
        final int role;
        final int sourceBits;
        /** The states word: a window's facts (its process, minimized) under WINDOW_FACTS (agent-abi §2). */
        final int states;
        final String text;

        Target(final long id, final long parentId, final long windowId, final int x, final int y, final int width,
            final int height, final int capabilities, final int flags, final int role, final int sourceBits, final int states, final String text) {
            this.id = id;
            this.parentId = parentId;
            this.windowId = windowId;
            this.x = x;
            this.y = y;
            this.width = width;
            this.height = height;
            this.capabilities = capabilities;
            this.flags = flags;
            this.role = role;
            this.sourceBits = sourceBits;
            this.states = states;
            this.text = text;
        }

        /** A window's owning process from its window facts; 0 when unknown. */
        long processId() {
            return TargetState.processId(states);
        }

        /** A window is minimized (window facts). */
        boolean minimized() {
            return (states & TargetState.MINIMIZED) != 0;
        }

        /** The target came from the accessibility source: not a window, ACCESSIBILITY among its sources. */
        boolean accessible() {
            return role != Role.WINDOW && (sourceBits & SourceBit.ACCESSIBILITY) != 0;
        }

        String roleName() {
            return Role.name(role).toLowerCase(Locale.ROOT);
        }

        Map<String, Object> bounds() {
            return JsonTree.object("x", (long) x, "y", (long) y, "w", (long) width, "h", (long) height);
        }

        /** PCP's action names this target supports, from its capability bits. */
        List<Object> actions() {
            final List<Object> out = new ArrayList<>();
            if ((capabilities & (TargetCapability.INVOKE | TargetCapability.CLICK | TargetCapability.WINDOW_ACTIVATE)) != 0) {
                out.add("activate");
            }
            if ((capabilities & TargetCapability.CLICK) != 0) {
                out.add("select");
            }
            if ((capabilities & TargetCapability.TEXT) != 0 || role == Role.SLIDER) {
                out.add("set_value"); // text by typing or EditableText; a slider's number by Value
            }
            if ((capabilities & TargetCapability.SCROLL) != 0) {
                out.add("scroll");
            }
            return out;
        }

        List<Object> states() {
            final List<Object> out = new ArrayList<>();
            if ((flags & TargetFlag.ACTIONABLE) != 0) {
                out.add("actionable");
            }
            if ((flags & TargetFlag.DISABLED) != 0) {
                out.add("disabled");
            }
            if ((flags & TargetFlag.OCCLUDED) != 0) {
                out.add("occluded");
            }
            if ((flags & TargetFlag.SECURE) != 0) {
                out.add("secure");
            }
            return out;
        }
    }
}
