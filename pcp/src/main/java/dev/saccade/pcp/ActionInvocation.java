package dev.saccade.pcp;

import dev.saccade.client.ActionBatchBuilder;
import dev.saccade.client.ActionExchange;
import dev.saccade.client.AgentClient;
import dev.saccade.client.DecimalU64;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlag;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One invoke.action, planned and run (pcp §6.3, "invoke.action"): the element is found in the
 * scene the caller planned against (the latest, or the generation it names), then agent action
 * batches carry it out with the GENERATION, PROCESS and WINDOW preconditions of that scene, the
 * semantic kinds first (INVOKE, SET_VALUE, SELECT: the application's accessibility interfaces,
 * agent-abi §5.8) and input after them. Every attempt is a batch the owner's planner checks, so
 * PCP is no second action path. A refusal because the desktop moved on is explained by what
 * changed (pcp §6.4); a stale generation the caller did not name is looked at again once.
 *
 * <p>Not thread-safe: its one owner is an {@link AgentScene}, whose monitor guards every call;
 * the builders below are reused under it.
 */
final class ActionInvocation {
    private static final long BATCH_DEADLINE_NS = TimeUnit.SECONDS.toNanos(5);
    /** HID usages (agent-abi §5.10) for clearing a field before set_value. */
    private static final int USAGE_A = 0x04;
    private static final int USAGE_BACKSPACE = 0x2A;

    private final AgentConnection connection;
    private final ActionBatchBuilder batch = new ActionBatchBuilder();
    private final ActionExchange exchange = new ActionExchange();
    private final ActionResultFlyweight row = new ActionResultFlyweight();
    /** The last batch ran through the application's accessibility interface (a SEMANTIC row, agent-abi §5.8). */
    private boolean semanticRow;

    ActionInvocation(final AgentConnection connection) {
        this.connection = connection;
    }

    /**
     * invoke.action on {@code elementId} of {@code surfaceId}: {@code {"executed": true, "result": {...}}}.
     *
     * @param plannedGeneration the generation the caller planned against, or 0 for the latest.
     */
    Map<String, Object> invoke(final String surfaceId, final String elementId, final String actionName,
        final Object value, final long plannedGeneration) throws PcpError {
        for (int attempt = 0; ; attempt++) {
            final SceneView latest = connection.scene();
            final SceneView kept = plannedGeneration == 0 ? null : connection.kept(plannedGeneration);
            final SceneView scene = kept != null ? kept : latest;
            final long generation = plannedGeneration != 0 ? plannedGeneration : scene.generation;
            final SceneView.Target window = scene.window(SceneView.windowIdOf(surfaceId));
            if (window == null) {
                throw PcpError.of(PcpError.SURFACE_NOT_FOUND, JsonTree.object("surface_id", surfaceId));
            }
            final SceneView.Target t = scene.byId.get(SceneView.targetIdOf(elementId));
            if (t == null || t.windowId != window.windowId) {
                throw PcpError.of(PcpError.ELEMENT_NOT_FOUND, JsonTree.object("element_id", elementId, "surface_id", surfaceId));
            }
            // select with a value: the element is a list or tree and the value names its child,
            // by element id (input can click that child) or by index (only the semantic path knows that one).
            final boolean select = "select".equals(actionName);
            final SceneView.Target child = select ? namedChild(scene, t, value) : null;
            final long childIndex = select && value instanceof Long ? (Long) value : -1;
            final SceneView.Target acted = child != null ? child : t;
            final boolean semantic = acted.accessible();
            if (!acted.actions().contains(actionName) && !(semantic && value != null && select)) {
                throw PcpError.of(PcpError.ACTION_NOT_SUPPORTED, JsonTree.object("element_id",
                    child != null ? SceneView.elementId(child.id) : elementId, "action", actionName, "supported", acted.actions()));
            }
            if ("set_value".equals(actionName) && (t.role == Role.SLIDER) != (value instanceof Number)) {
                throw Params.invalidParams("value", t.role == Role.SLIDER
                    ? "a slider's value is a number" : "a text element's value is a string");
            }
            final int[] kinds = plan(acted, actionName, semantic, value, childIndex);
            if (kinds.length == 0) {
                // A number is set, and a child chosen by index, only through the semantic path.
                throw PcpError.of(PcpError.NO_ATSPI2_SUPPORT, JsonTree.object("element_id", elementId,
                    "reason", childIndex >= 0 ? "selecting a child by index needs the element's AT-SPI Selection interface"
                        : "setting a number needs the element's AT-SPI Value interface", "attempts", List.of()));
            }
            int result = ResultCode.ACTION_UNSUPPORTED;
            int kind = 0;
            final List<Object> attempts = new ArrayList<>();
            for (final int k : kinds) {
                kind = k;
                result = run(generation, scene, k == ActionKind.SET_VALUE || k == ActionKind.SELECT && childIndex >= 0 ? t : acted,
                    k, actionName, value, childIndex);
                attempts.add(JsonTree.object("via", via(k), "result", ResultCode.name(result)));
                if (result != ResultCode.ACTION_UNSUPPORTED && result != ResultCode.BACKEND) {
                    break; // only an unsupported or failed path falls back to the next; a refusal stands
                }
            }
            if (result == ResultCode.OK) {
                return done(kind, acted, actionName, scene.generation, childIndex);
            }
            if (result == ResultCode.STALE_GENERATION && attempt == 0 && plannedGeneration == 0) {
                continue; // the scene moved between our observe and the batch: look again once
            }
            if (result == ResultCode.STALE_GENERATION) {
                final SceneView now = connection.scene();
                throw PcpError.of(PcpError.ELEMENT_NOT_FOUND, JsonTree.object("element_id", elementId,
                    "reason", ResultCode.name(result), "changed", changed(scene, now, t),
                    "planned_generation", DecimalU64.format(generation), "generation", DecimalU64.format(now.generation)));
            }
            if (result == ResultCode.TARGET_NOT_FOUND) {
                // the action path acts only on what is there, actionable and not covered (agent-abi §5.8 rule F)
                throw PcpError.of(PcpError.ELEMENT_NOT_FOUND, JsonTree.object("element_id", elementId,
                    "reason", ResultCode.name(result), "states", acted.states()));
            }
            if (result == ResultCode.ACTION_UNSUPPORTED) {
                throw PcpError.of(PcpError.NO_ATSPI2_SUPPORT, JsonTree.object("element_id", elementId,
                    "reason", "neither the accessible action nor input could perform " + actionName));
            }
            throw PcpError.of(PcpError.INPUT_SIMULATION_FAILED, JsonTree.object("element_id", elementId,
                "reason", ResultCode.name(result), "attempts", attempts));
        }
    }

    /** The answer of an action done by {@code kind}: "atspi" when its row says it ran through the accessibility interface. */
    private Map<String, Object> done(final int kind, final SceneView.Target acted, final String actionName,
        final long generation, final long childIndex) {
        if (!semanticRow) {
            return JsonTree.object("executed", true, "result", JsonTree.object("via", via(kind),
                "validated_generation", DecimalU64.format(generation)));
        }
        final Map<String, Object> result = JsonTree.object("via", "atspi", "generation", DecimalU64.format(generation));
        if ("select".equals(actionName)) {
            result.put("interface", "selection");
            result.put("selected", childIndex >= 0 ? (Object) childIndex : SceneView.elementId(acted.id));
        }
        return JsonTree.object("executed", true, "result", result);
    }

    /** How a kind acts: "atspi" for the semantic kinds, else the kind's name. */
    private static String via(final int kind) {
        return ActionKind.semantic(kind) ? "atspi" : ActionKind.name(kind).toLowerCase(Locale.ROOT);
    }

    /**
     * What differs between the scene planned against and the current one, most telling first
     * (pcp §6.4): the surface closed, the element gone, another foreground process or window,
     * the surface moved or resized, or only a newer generation.
     */
    static String changed(final SceneView planned, final SceneView now, final SceneView.Target t) {
        final SceneView.Target window = now.window(t.windowId);
        if (window == null) {
            return "surface_closed";
        }
        if (now.byId.get(t.id) == null) {
            return "element_gone";
        }
        if (planned.foregroundPid != now.foregroundPid) {
            return "process";
        }
        if (planned.activeWindowId != now.activeWindowId) {
            return "window";
        }
        final SceneView.Target before = planned.window(t.windowId);
        if (before != null && !before.bounds().equals(window.bounds())) {
            return "surface_moved";
        }
        return "generation";
    }

    /**
     * The child of {@code t} that select's value names by element id; null without a value or
     * for an index.
     */
    private static SceneView.Target namedChild(final SceneView scene, final SceneView.Target t, final Object value)
        throws PcpError {
        if (value == null || value instanceof Long && (Long) value >= 0 && (Long) value <= Integer.MAX_VALUE) {
            return null;
        }
        final SceneView.Target child = value instanceof String ? scene.byId.get(SceneView.targetIdOf((String) value)) : null;
        if (child == null || child.parentId != t.id || child.id == t.id) {
            throw Params.invalidParams("value", "select's value names a child of the element: its element id or "
                + "its index (0 or more)");
        }
        return child;
    }

    /** Agent action kinds to try, semantic first; none when only the semantic path could and the element has none. */
    private static int[] plan(final SceneView.Target t, final String actionName, final boolean semantic, final Object value,
        final long childIndex) {
        switch (actionName) {
            case "activate":
                if ((t.capabilities & TargetCapability.INVOKE) != 0) {
                    return (t.capabilities & TargetCapability.CLICK) != 0
                        ? new int[] {ActionKind.INVOKE, ActionKind.CLICK} : new int[] {ActionKind.INVOKE};
                }
                return (t.capabilities & TargetCapability.CLICK) != 0 ? new int[] {ActionKind.CLICK}
                    : new int[] {ActionKind.WINDOW_ACTIVATE};
            case "select":
                if (childIndex >= 0) {
                    return semantic ? new int[] {ActionKind.SELECT} : new int[0];
                }
                return semantic ? new int[] {ActionKind.SELECT, ActionKind.CLICK} : new int[] {ActionKind.CLICK};
            case "set_value":
                if (value instanceof Number) {
                    return semantic ? new int[] {ActionKind.SET_VALUE} : new int[0];
                }
                return semantic ? new int[] {ActionKind.SET_VALUE, ActionKind.TEXT} : new int[] {ActionKind.TEXT};
            default:
                return new int[] {ActionKind.SCROLL};
        }
    }

    /**
     * One batch with the GENERATION, PROCESS and WINDOW preconditions of the scene planned
     * against (agent-abi §5.7.1); returns the completion's result.
     */
    private int run(final long generation, final SceneView scene, final SceneView.Target t, final int kind,
        final String actionName, final Object value, final long childIndex) throws PcpError {
        try {
            final AgentClient c = connection.client();
            final ActionBatchBuilder b = batch.clearActions().requestId(connection.nextRequestId())
                .policy(AgentAbi.POLICY_STOP_ON_FAILURE).deadlineNs(System.nanoTime() + BATCH_DEADLINE_NS)
                .expectGeneration(generation).expectProcess(scene.foregroundPid).expectWindow(scene.activeWindowId);
            if (kind == ActionKind.TEXT) {
                // Replace, not append: focus click, select all, delete, then type.
                b.kind(ActionKind.CLICK).target(t.id).button(Button.LEFT).repeat(1)
                    .nextAction().kind(ActionKind.KEY_CHORD).keyUsage(USAGE_A).modifiers(Modifier.CONTROL)
                    .nextAction().kind(ActionKind.KEY).keyUsage(USAGE_BACKSPACE)
                    .nextAction().kind(ActionKind.TEXT).target(t.id).button(Button.LEFT).text(text(value));
            } else if (kind == ActionKind.SET_VALUE) {
                // an empty text clears the field: the semantic path can, typing cannot
                b.kind(kind).target(t.id).valueNumber(value instanceof Number)
                    .text(value instanceof Number ? number((Number) value) : "".equals(value) ? null : text(value));
            } else if (kind == ActionKind.SELECT) {
                b.kind(kind).target(t.id);
                if (childIndex >= 0) {
                    b.text(Long.toString(childIndex).getBytes(StandardCharsets.US_ASCII));
                }
            } else if (kind == ActionKind.CLICK || kind == ActionKind.INVOKE) {
                b.kind(kind).target(t.id).button(Button.LEFT).repeat(1);
            } else if (kind == ActionKind.SCROLL) {
                b.kind(kind).target(t.id).deltasQ8(0, scrollLines(value) * RectQ8.ONE);
            } else {
                b.kind(kind).target(t.id);
            }
            final ActionCompletionFlyweight completion = exchange.roundTrip(c, b.writeTo(c.requestStore(), c.requestOffset()));
            semanticRow = false;
            for (long i = 0; i < completion.actionResultCount(); i++) {
                row.wrap(completion.bytes(), completion.offset() + completion.actionResultsOffset() + i * completion.actionResultStride());
                semanticRow |= (row.flags() & ActionResultFlag.SEMANTIC) != 0;
            }
            return completion.result();
        } catch (final IOException e) {
            connection.drop();
            throw new PcpError(PcpError.INPUT_SIMULATION_FAILED, "Input simulation failed: " + e.getMessage(),
                JsonTree.object("action", actionName));
        }
    }

    /** set_value's text: non-empty, at most MAX_TEXT_BYTES of UTF-8. */
    private static byte[] text(final Object value) throws PcpError {
        if (!(value instanceof String) || ((String) value).isEmpty()) {
            throw Params.invalidParams("value", "set_value needs a non-empty string");
        }
        final byte[] text = ((String) value).getBytes(StandardCharsets.UTF_8);
        if (text.length > AgentAbi.MAX_TEXT_BYTES) {
            throw PcpError.of(PcpError.TEXT_TOO_LARGE, JsonTree.object("max_bytes", (long) AgentAbi.MAX_TEXT_BYTES));
        }
        return text;
    }

    /** A number as SET_VALUE's payload: its shortest decimal form (agent-abi §5.8). */
    private static byte[] number(final Number value) throws PcpError {
        final double d = value.doubleValue();
        if (!Double.isFinite(d)) {
            throw Params.invalidParams("value", "a slider's value is a finite number");
        }
        return (value instanceof Long ? value.toString() : Double.toString(d)).getBytes(StandardCharsets.US_ASCII);
    }

    /** Scroll amount: {@code value} lines (positive down), default 3; bounded so a typo cannot spin a wheel forever. */
    private static int scrollLines(final Object value) throws PcpError {
        if (value == null) {
            return 3;
        }
        if (!(value instanceof Long) || (Long) value == 0 || Math.abs((Long) value) > 100) {
            throw Params.invalidParams("value", "scroll takes a non-zero integer of lines, -100..100");
        }
        return ((Long) value).intValue();
    }
}
