package dev.saccade.pcp;

import dev.saccade.client.ActionBatchBuilder;
import dev.saccade.client.ActionExchange;
import dev.saccade.client.AgentClient;
import dev.saccade.client.DecimalU64;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.ActionKind;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One invoke.action, planned and run (pcp §6.3, "invoke.action"): the element is found in the
 * latest generation, the AT-SPI path is tried first where the element has it
 * ({@link AccessibleActions}), then agent action batches with the generation precondition, semantic
 * kinds before input; a stale generation is looked at again once. Apart from the queries because
 * the fallback order and its errors are the part an agent relies on never to act twice or on a
 * stale element.
 *
 * <p>Not thread-safe: its one owner is an {@link AgentScene}, whose monitor guards every call;
 * the builders below are reused under it.
 */
final class ActionInvocation {
    private static final long BATCH_DEADLINE_NS = TimeUnit.SECONDS.toNanos(5);
    /** HID usages (spec §5.10) for clearing a field before set_value. */
    private static final int USAGE_A = 0x04;
    private static final int USAGE_BACKSPACE = 0x2A;

    private final AgentConnection connection;
    /** AT-SPI first for activate, select and set_value; {@code null} without accessibility. */
    private final AccessibleActions accessible;
    private final ActionBatchBuilder batch = new ActionBatchBuilder();
    private final ActionExchange exchange = new ActionExchange();

    ActionInvocation(final AgentConnection connection, final AccessibleActions accessible) {
        this.connection = connection;
        this.accessible = accessible;
    }

    /** invoke.action on {@code elementId} of {@code surfaceId}: {@code {"executed": true, "result": {...}}}. */
    Map<String, Object> invoke(final String surfaceId, final String elementId, final String actionName,
        final Object value) throws PcpError {
        for (int attempt = 0; ; attempt++) {
            final SceneView scene = connection.scene();
            final SceneView.Target window = scene.window(SceneView.windowIdOf(surfaceId));
            if (window == null) {
                throw PcpError.of(PcpError.SURFACE_NOT_FOUND, JsonTree.object("surface_id", surfaceId));
            }
            final SceneView.Target t = scene.byId.get(SceneView.targetIdOf(elementId));
            if (t == null || t.windowId != window.windowId) {
                throw PcpError.of(PcpError.ELEMENT_NOT_FOUND, JsonTree.object("element_id", elementId, "surface_id", surfaceId));
            }
            // select with a value: the element is a list or tree and the value names its child,
            // by element id (input can click that child) or by index (only AT-SPI knows that one).
            final SceneView.Target child = "select".equals(actionName) ? namedChild(scene, t, value) : null;
            final long childIndex = "select".equals(actionName) && value instanceof Long ? (Long) value : -1;
            final SceneView.Target acted = child != null ? child : t;
            final boolean semantic = accessible != null && TargetIds.namespace(acted.id) == TargetIds.namespace(
                TargetIds.ACCESSIBILITY_NAMESPACE);
            if (!acted.actions().contains(actionName) && !(semantic && value != null && "select".equals(actionName))) {
                throw PcpError.of(PcpError.ACTION_NOT_SUPPORTED, JsonTree.object("element_id",
                    child != null ? SceneView.elementId(child.id) : elementId, "action", actionName, "supported", acted.actions()));
            }
            if ("set_value".equals(actionName) && (t.role == Role.SLIDER) != (value instanceof Number)) {
                throw Params.invalidParams("value", t.role == Role.SLIDER
                    ? "a slider's value is a number" : "a text element's value is a string");
            }
            final int[] kinds = plan(acted, actionName);
            int result = ResultCode.ACTION_UNSUPPORTED;
            String via = null;
            final List<Object> attempts = new ArrayList<>();
            if (semantic && ("activate".equals(actionName) && (t.capabilities & TargetCapability.INVOKE) != 0
                || "set_value".equals(actionName) && (value instanceof String || value instanceof Number)
                || "select".equals(actionName))) {
                final long deadlineNs = System.nanoTime() + BATCH_DEADLINE_NS;
                result = ResultCode.fromPlatform(accessibleAction(t, actionName, value, acted, childIndex, deadlineNs));
                attempts.add(JsonTree.object("via", "atspi", "result", ResultCode.name(result)));
                if (result == ResultCode.OK) {
                    final Map<String, Object> done = JsonTree.object("via", "atspi",
                        "generation", DecimalU64.format(scene.generation));
                    if ("select".equals(actionName)) {
                        done.put("interface", "selection");
                        done.put("selected", childIndex >= 0 ? (Object) childIndex : SceneView.elementId(acted.id));
                    }
                    return JsonTree.object("executed", true, "result", done);
                }
            }
            if (("set_value".equals(actionName) && value instanceof Number) || childIndex >= 0) {
                // A number is set, and a child chosen by index, through AT-SPI only: there is nothing to type or click.
                throw PcpError.of(PcpError.NO_ATSPI2_SUPPORT, JsonTree.object("element_id", elementId,
                    "reason", childIndex >= 0 ? "selecting a child by index needs the element's AT-SPI Selection interface"
                        : "setting a number needs the element's AT-SPI Value interface", "attempts", attempts));
            }
            for (final int kind : kinds) {
                result = run(scene.generation, acted, kind, actionName, value);
                via = ActionKind.name(kind).toLowerCase(java.util.Locale.ROOT);
                attempts.add(JsonTree.object("via", via, "result", ResultCode.name(result)));
                if (result != ResultCode.ACTION_UNSUPPORTED && result != ResultCode.BACKEND) {
                    break; // only an unsupported or failed semantic path falls back to input
                }
            }
            if (result == ResultCode.OK) {
                return JsonTree.object("executed", true, "result", JsonTree.object("via", via,
                    "validated_generation", DecimalU64.format(scene.generation)));
            }
            if (result == ResultCode.STALE_GENERATION && attempt == 0) {
                continue; // the scene moved between our observe and the batch: look again once
            }
            if (result == ResultCode.TARGET_NOT_FOUND || result == ResultCode.STALE_GENERATION) {
                throw PcpError.of(PcpError.ELEMENT_NOT_FOUND, JsonTree.object("element_id", elementId,
                    "reason", ResultCode.name(result)));
            }
            if (result == ResultCode.ACTION_UNSUPPORTED) {
                throw PcpError.of(PcpError.NO_ATSPI2_SUPPORT, JsonTree.object("element_id", elementId,
                    "reason", "neither the accessible action nor input could perform " + actionName));
            }
            throw PcpError.of(PcpError.INPUT_SIMULATION_FAILED, JsonTree.object("element_id", elementId,
                "reason", ResultCode.name(result), "attempts", attempts));
        }
    }

    /** The platform code of the AT-SPI path for the action ({@link AccessibleActions}). */
    private int accessibleAction(final SceneView.Target t, final String actionName, final Object value,
        final SceneView.Target acted, final long childIndex, final long deadlineNs) {
        switch (actionName) {
            case "activate":
                return accessible.activate(t.id, deadlineNs);
            case "select":
                return childIndex >= 0 ? accessible.selectChild(t.id, (int) childIndex, deadlineNs)
                    : accessible.select(acted.id, deadlineNs);
            default:
                return value instanceof Number ? accessible.setValue(t.id, ((Number) value).doubleValue(), deadlineNs)
                    : accessible.setText(t.id, (String) value, deadlineNs);
        }
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

    /** Agent action kinds to try, semantic first. */
    private static int[] plan(final SceneView.Target t, final String actionName) {
        switch (actionName) {
            case "activate":
                if ((t.capabilities & TargetCapability.INVOKE) != 0) {
                    return (t.capabilities & TargetCapability.CLICK) != 0
                        ? new int[] {ActionKind.INVOKE, ActionKind.CLICK} : new int[] {ActionKind.INVOKE};
                }
                return (t.capabilities & TargetCapability.CLICK) != 0 ? new int[] {ActionKind.CLICK}
                    : new int[] {ActionKind.WINDOW_ACTIVATE};
            case "select":
                return new int[] {ActionKind.CLICK};
            case "set_value":
                return new int[] {ActionKind.TEXT};
            default:
                return new int[] {ActionKind.SCROLL};
        }
    }

    /** One batch with the generation precondition; returns the completion's result. */
    private int run(final long generation, final SceneView.Target t, final int kind, final String actionName,
        final Object value) throws PcpError {
        try {
            final AgentClient c = connection.client();
            final ActionBatchBuilder b = batch.clearActions().requestId(connection.nextRequestId())
                .policy(AgentAbi.POLICY_STOP_ON_FAILURE).deadlineNs(System.nanoTime() + BATCH_DEADLINE_NS)
                .expectGeneration(generation);
            if (kind == ActionKind.TEXT) {
                if (!(value instanceof String) || ((String) value).isEmpty()) {
                    throw Params.invalidParams("value", "set_value needs a non-empty string");
                }
                final byte[] text = ((String) value).getBytes(StandardCharsets.UTF_8);
                if (text.length > AgentAbi.MAX_TEXT_BYTES) {
                    throw PcpError.of(PcpError.TEXT_TOO_LARGE, JsonTree.object("max_bytes", (long) AgentAbi.MAX_TEXT_BYTES));
                }
                // Replace, not append: focus click, select all, delete, then type.
                b.kind(ActionKind.CLICK).target(t.id).button(Button.LEFT).repeat(1)
                    .nextAction().kind(ActionKind.KEY_CHORD).keyUsage(USAGE_A).modifiers(Modifier.CONTROL)
                    .nextAction().kind(ActionKind.KEY).keyUsage(USAGE_BACKSPACE)
                    .nextAction().kind(ActionKind.TEXT).target(t.id).button(Button.LEFT).text(text);
            } else if (kind == ActionKind.CLICK || kind == ActionKind.INVOKE) {
                b.kind(kind).target(t.id).button(Button.LEFT).repeat(1);
            } else if (kind == ActionKind.SCROLL) {
                b.kind(kind).target(t.id).deltasQ8(0, scrollLines(value) * RectQ8.ONE);
            } else {
                b.kind(kind).target(t.id);
            }
            return exchange.roundTrip(c, b.writeTo(c.requestStore(), c.requestOffset())).result();
        } catch (final IOException e) {
            connection.drop();
            throw new PcpError(PcpError.INPUT_SIMULATION_FAILED, "Input simulation failed: " + e.getMessage(),
                JsonTree.object("action", actionName));
        }
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
