package dev.saccade.mcp;

import dev.saccade.client.AgentClient;
import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.ReadExchange;
import dev.saccade.client.ReadFreshness;
import dev.saccade.client.ReadScope;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What an act call observed after its action (mcp.md §7, "effect"): the whole scene is read just
 * before the batch and again once a newer generation has come and settled, within the verify
 * window, and the two are compared. {@code confirmed} names what changed (the target's text or
 * state, a window that appeared or closed, the focus, anything else); {@code no-change} says the
 * scene stayed the same for the whole window, which only an action without a visible effect
 * leaves (not necessarily one without any effect, D63); {@code unverifiable} is every other case
 * (nothing was sent, the kind changes nothing by itself, a read failed). Runs on the MCP thread;
 * allocates per call.
 */
final class ActionEffect {
    static final String CONFIRMED = "confirmed";
    static final String NO_CHANGE = "no-change";
    static final String UNVERIFIABLE = "unverifiable";
    static final long BEFORE_REQUEST_ID = 6;
    static final long AFTER_REQUEST_ID = 7;
    /** Base roles whose value no record carries (a slider's position, a calendar's day, an image). */
    private static final List<Integer> HIDDEN_VALUE = List.of(Role.SLIDER, Role.UNKNOWN, Role.IMAGE);
    /** Flags that follow from other windows or from the text lane's room, not from the target itself. */
    private static final int INCIDENTAL_FLAGS = TargetFlag.OCCLUDED | TargetFlag.TEXT_TRUNCATED;

    private final ReadExchange exchange = new ReadExchange();
    private final ObserveRequestBuilder request = new ObserveRequestBuilder().maximumTargets(AgentAbi.MAX_TARGETS)
        .targetStride(TargetFlyweight.LENGTH).totalCapacity(ObserveTool.TOTAL_CAPACITY)
        .scope(new ReadScope(ScopeKind.DESKTOP, SourceMode.FUSED, 0, null));
    private final long windowMs;
    private final long settleMs;
    private Scene before;
    private String effect = UNVERIFIABLE;
    private final List<String> observed = new ArrayList<>();

    ActionEffect(final long windowMs, final long settleMs) {
        this.windowMs = windowMs;
        this.settleMs = settleMs;
    }

    /** Whether an action of {@code kind} is meant to change what the scene shows. */
    static boolean expectsEffect(final int kind) {
        switch (kind) {
            case ActionKind.CLICK:
            case ActionKind.INVOKE:
            case ActionKind.DRAG_DROP:
            case ActionKind.SCROLL:
            case ActionKind.KEY:
            case ActionKind.KEY_CHORD:
            case ActionKind.TEXT:
            case ActionKind.TEXT_SELECT:
            case ActionKind.WINDOW_ACTIVATE:
            case ActionKind.WINDOW_CYCLE:
                return true;
            default:
                return false;
        }
    }

    /** Reads the scene the action will be compared against; false when it cannot be read. */
    boolean before(final AgentClient client) throws IOException {
        effect = UNVERIFIABLE;
        observed.clear();
        final CompletionFlyweight c = read(client, BEFORE_REQUEST_ID, ReadFreshness.LATEST);
        before = c.result() == ResultCode.OK && (c.header().flags() & AgentAbi.FLAG_TRUNCATED) == 0 ? new Scene(c) : null;
        return before != null;
    }

    /**
     * After an action that ran: waits up to the verify window for a newer generation, lets it
     * settle, and compares. {@code kind} and {@code targetId} are the action's (0 for no target).
     */
    void after(final AgentClient client, final int kind, final long targetId) throws IOException {
        if (before == null) {
            return;
        }
        final long endNs = System.nanoTime() + (windowMs + 4 * settleMs) * 1_000_000L;
        CompletionFlyweight c = read(client, AFTER_REQUEST_ID, ReadFreshness.after(before.generation, windowMs));
        if (!before.shows(targetId, kind == ActionKind.KEY || kind == ActionKind.KEY_CHORD)) {
            return; // what the action changes is not in the scene: no change seen would prove nothing
        }
        if (c.result() == ResultCode.TIMEOUT) {
            effect = NO_CHANGE; // not one generation in the whole window: nothing it could show changed
            return;
        }
        if (c.result() != ResultCode.OK || Long.compareUnsigned(c.generation().generation(), before.generation) <= 0) {
            return; // a failed read, or an answer that is not the newer scene asked for: unverifiable
        }
        Scene now = null;
        while (c.result() == ResultCode.OK && (c.header().flags() & AgentAbi.FLAG_TRUNCATED) == 0) {
            final long seen = now == null ? before.generation : now.generation;
            final long generation = c.generation().generation();
            if (Long.compareUnsigned(generation, seen) <= 0) {
                break; // no newer than asked: nothing more will settle
            }
            now = new Scene(c);
            final long leftMs = (endNs - System.nanoTime()) / 1_000_000L;
            if (leftMs <= 0) {
                break;
            }
            c = read(client, AFTER_REQUEST_ID, ReadFreshness.after(now.generation, Math.min(settleMs, leftMs)));
        }
        if (now == null) {
            return; // a read failed: unverifiable
        }
        compare(before, now, targetId);
        effect = observed.isEmpty() ? NO_CHANGE : CONFIRMED;
    }

    String effect() {
        return effect;
    }

    /** What changed, in the words of mcp.md §7; empty unless {@link #CONFIRMED}. */
    List<String> observed() {
        return observed;
    }

    /** The hint that goes with {@link #NO_CHANGE}. */
    String hint() {
        return NO_CHANGE.equals(effect) ? noChangeHint(windowMs) : null;
    }

    /**
     * What a no-change result tells the agent: the screen stayed the same, which is no proof that
     * the application did nothing. An application may take the action into state it does not
     * show (a calculator's pending operator), and neither its accessibility events nor its
     * repaints tell that apart from a control that does nothing (D63), so the hint warns
     * against a repeat, which would then act twice.
     */
    static String noChangeHint(final long windowMs) {
        return "the action ran, but nothing on screen changed within " + windowMs + " ms: the control may do"
            + " nothing, be the wrong one, or have taken it into state the screen does not show (a pending"
            + " operation, a mode); do not repeat it to make something happen, since a repeat may act twice:"
            + " go on with the task, or check its result another way first";
    }

    private void compare(final Scene was, final Scene now, final long targetId) {
        if (targetId != 0 && !Objects.equals(was.targets.get(targetId), now.targets.get(targetId))) {
            observed.add("target-changed");
        }
        if (now.windows.stream().anyMatch(w -> !was.windows.contains(w))) {
            observed.add("window-appeared");
        }
        if (was.windows.stream().anyMatch(w -> !now.windows.contains(w))) {
            observed.add("window-closed");
        }
        if (was.activeWindow != now.activeWindow || was.focused != now.focused) {
            observed.add("focus-moved");
        }
        if (observed.isEmpty() && !was.targets.equals(now.targets)) {
            observed.add("scene-changed");
        }
    }

    private CompletionFlyweight read(final AgentClient client, final long requestId, final ReadFreshness freshness)
        throws IOException {
        final int length = request.requestId(requestId).freshness(freshness)
            .writeTo(client.requestStore(), client.requestOffset());
        return exchange.roundTrip(client, length, requestId, AgentAbi.OBSERVE_COMPLETION);
    }

    /** The parts of a scene an action can change, by target id. */
    private static final class Scene {
        final long generation;
        final long activeWindow;
        long focused;
        final Map<Long, String> targets = new HashMap<>();
        final List<Long> windows = new ArrayList<>();
        /** Targets whose state the scene shows: text and states, not a hidden value or redacted text. */
        final List<Long> shown = new ArrayList<>();

        /**
         * Whether a change the action makes would show in the scene: to its target, or for keys
         * ({@code keys}) to the focused target where they go; not a slider's or a calendar's
         * value, which no record carries, nor redacted text. A cycle changes the active window.
         */
        boolean shows(final long targetId, final boolean keys) {
            if (keys) {
                return focused != 0 && shown.contains(focused);
            }
            return targetId == 0 || shown.contains(targetId);
        }

        Scene(final CompletionFlyweight c) {
            generation = c.generation().generation();
            activeWindow = c.generation().windowId();
            final TargetFlyweight t = new TargetFlyweight();
            for (long i = 0; i < c.targetCount(); i++) {
                t.wrap(c.bytes(), c.offset() + c.targetsOffset() + i * c.targetStride());
                final byte[] text = new byte[(int) t.textSize()];
                c.bytes().read(c.offset() + t.textOffset(), text, 0, text.length);
                targets.put(t.targetId(), t.role() + "/" + (t.flags() & ~INCIDENTAL_FLAGS) + "/" + t.states() + "/"
                    + t.boundsXQ8() + "," + t.boundsYQ8() + "," + t.boundsWidthQ8() + "," + t.boundsHeightQ8() + "/"
                    + new String(text, StandardCharsets.UTF_8));
                if (t.role() == Role.WINDOW && t.parentId() == 0) {
                    windows.add(t.targetId());
                }
                if ((t.states() & TargetState.FOCUSED) != 0) {
                    focused = t.targetId();
                }
                if (!HIDDEN_VALUE.contains(Role.base(t.role()))
                    && (t.flags() & (TargetFlag.TEXT_REDACTED | TargetFlag.SECURE)) == 0) {
                    shown.add(t.targetId());
                }
            }
        }
    }
}
