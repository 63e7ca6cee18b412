package dev.saccade.pcp;

import dev.saccade.client.DecimalU64;
import dev.saccade.client.ActionBatchBuilder;
import dev.saccade.client.ActionExchange;
import dev.saccade.client.AgentClient;
import dev.saccade.client.IdleRelease;
import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.ReadExchange;
import dev.saccade.client.ReadFreshness;
import dev.saccade.client.ReadScope;
import dev.saccade.owner.source.TargetIds;
import dev.saccade.owner.x11.DesktopSnapshot;
import dev.saccade.owner.x11.WindowInfo;
import dev.saccade.owner.x11.X11DesktopReader;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlyweight;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * PCP's desktop, read and acted on through the owner's own agent endpoint (the binary ABI), so
 * PCP sees exactly the generations an agent sees and acts only through the agent action path
 * (AT-SPI invoke where the target has it, input through the planner and helper otherwise): no
 * second way to inject input, and the owner thread's rules stay untouched.
 *
 * <p>query.surface reports window targets; the owning process (for {@code app_id}) and the
 * minimized state are window-manager facts the agent record does not carry, so they are read
 * from one X11 snapshot per query (by window id) when a display is known.
 *
 * <p>Not for the owner thread: each call is a blocking round trip. Calls are serialised on this
 * object (one agent connection); events use their own connection ({@link SceneEvents}).
 */
public final class AgentScene implements PcpScene, AutoCloseable {
    /** The owner's agent-endpoint limit is spec MAX_TARGETS; the response buffer is 1 MiB. */
    static final int MAX_TARGETS = AgentAbi.MAX_TARGETS;
    /** Beyond this many elements query.elements answers -32020 and asks for a focus_id. */
    public static final int MAX_ELEMENTS = 2_000;
    private static final long BATCH_DEADLINE_NS = TimeUnit.SECONDS.toNanos(5);
    /** HID usages (spec §5.10) for clearing a field before set_value. */
    private static final int USAGE_A = 0x04;
    private static final int USAGE_BACKSPACE = 0x2A;

    private final Path endpoint;
    private final String display;
    private final Duration timeout;
    private final ObserveRequestBuilder observe = desktopObserve();
    private final ReadExchange read = new ReadExchange();
    private final ActionBatchBuilder batch = new ActionBatchBuilder();
    private final ActionExchange exchange = new ActionExchange();
    /** AT-SPI first for activate, select and set_value; {@code null} without accessibility. */
    private final AccessibleActions accessible;
    private AgentClient client;
    private long requestId = 1;
    /** PCP's one connection is given back after 30 s without a read or an action (agent-abi §1.1). */
    private final IdleRelease idle = new IdleRelease("saccade-pcp-idle-release",
        TimeUnit.MILLISECONDS.toNanos(Long.getLong(IDLE_RELEASE_MS_PROP, 30_000)), this, () -> client != null,
        () -> false, this::dropClient);
    static final String IDLE_RELEASE_MS_PROP = "saccade.pcp.idle.release.ms";

    /** A scene without the AT-SPI path: every action goes through the agent action path. */
    public AgentScene(final Path endpoint, final String display, final Duration timeout) {
        this(endpoint, display, timeout, null);
    }

    AgentScene(final Path endpoint, final String display, final Duration timeout, final AccessibleActions accessible) {
        this.endpoint = endpoint;
        this.display = display;
        this.timeout = timeout;
        this.accessible = accessible;
    }

    /** Connects and says Hello asking for observe, pointer, keyboard and window (the owner's policy). */
    static AgentClient connect(final Path endpoint, final Duration timeout) throws IOException {
        final AgentClient c = AgentClient.connect(endpoint, timeout);
        try {
            c.readTimeout(timeout);
            c.hello(0, Capability.OBSERVE | Capability.POINTER | Capability.KEYBOARD | Capability.WINDOW);
            return c;
        } catch (final IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Observes the whole desktop (FUSED, every record): the latest generation, or with
     * {@code afterGeneration} &gt; 0 the first one newer than it, parked up to {@code waitNs}.
     *
     * @return the scene, or {@code null} when the wait ended without a newer generation.
     */
    static SceneView observe(final AgentClient c, final ObserveRequestBuilder r, final ReadExchange read,
        final long requestId, final long afterGeneration, final long waitNs) throws IOException {
        final int length = r.requestId(requestId)
            .freshness(afterGeneration > 0 ? new ReadFreshness(FreshnessPolicy.AFTER_GENERATION, afterGeneration, waitNs)
                : ReadFreshness.LATEST)
            .writeTo(c.requestStore(), c.requestOffset());
        final CompletionFlyweight completion = read.roundTrip(c, length, requestId, AgentAbi.OBSERVE_COMPLETION);
        final int result = completion.result();
        if (result == ResultCode.TIMEOUT) {
            return null;
        }
        if (result != ResultCode.OK) {
            throw new IOException("observe answered " + ResultCode.name(result));
        }
        return SceneView.decode(completion.bytes(), completion.offset());
    }

    /** The whole desktop (FUSED, every record the endpoint allows): PCP's one observe. */
    static ObserveRequestBuilder desktopObserve() {
        return new ObserveRequestBuilder().scope(ReadScope.DESKTOP).maximumTargets(MAX_TARGETS)
            .targetStride(TargetFlyweight.LENGTH).totalCapacity(ObserveRequestBuilder.MAX_CAPACITY);
    }

    private SceneView scene() throws PcpError {
        try {
            return observe(client(), observe, read, requestId++, 0, 0);
        } catch (final IOException e) {
            dropClient();
            throw new PcpError(PcpError.INTERNAL_ERROR, "The scene is unavailable: " + e.getMessage(),
                JsonTree.object("endpoint", endpoint.toString()));
        }
    }

    /** The connection, connected first when there is none; every use ends in {@link #idle}'s count (callers hold the lock). */
    private AgentClient client() throws IOException {
        if (client == null || client.peerClosed()) { // gone meanwhile (evicted idle, owner restart): connect again
            dropClient();
            client = connect(endpoint, timeout);
        }
        idle.used(); // counted from the start of the use: the lock keeps the release out until it ends
        return client;
    }

    private void dropClient() {
        if (client != null) {
            try {
                client.close();
            } catch (final IOException ignore) {
                // Already broken; the next call reconnects.
            }
            client = null;
        }
    }

    @Override
    public synchronized List<Map<String, Object>> surfaces() throws PcpError {
        final SceneView scene = scene();
        final DesktopSnapshot x = windowFacts();
        final List<Map<String, Object>> out = new ArrayList<>();
        for (final SceneView.Target w : scene.windows()) {
            final WindowInfo info = x == null ? null : x.window(w.windowId);
            final long pid = info != null ? info.pid() : (w.windowId == scene.activeWindowId ? scene.foregroundPid : 0);
            final String state = w.windowId == scene.activeWindowId ? "focused"
                : info != null && info.hidden() ? "minimized" : "normal";
            out.add(JsonTree.object("surface_id", SceneView.surfaceId(w.windowId), "app_id", appId(pid), "title", w.text,
                "state", state, "geometry", w.bounds(), "tier", 0L, "pid", pid,
                "element_id", SceneView.elementId(w.id), "generation", DecimalU64.format(scene.generation)));
        }
        return out;
    }

    /** The process's name ({@code /proc/<pid>/comm}) as its application id; "unknown" without a pid. */
    static String appId(final long pid) {
        if (pid <= 0) {
            return "unknown";
        }
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "comm"), StandardCharsets.UTF_8).strip();
        } catch (final IOException e) {
            return "pid-" + pid;
        }
    }

    private DesktopSnapshot windowFacts() {
        if (display == null) {
            return null;
        }
        try {
            return X11DesktopReader.readOnce(display);
        } catch (final RuntimeException e) {
            return null; // pid and minimized state are extras: the surface list stands without them
        }
    }

    @Override
    public synchronized Map<String, Object> elements(final String surfaceId, final String focusId) throws PcpError {
        final SceneView scene = scene();
        final SceneView.Target window = scene.window(SceneView.windowIdOf(surfaceId));
        if (window == null) {
            throw PcpError.of(PcpError.SURFACE_NOT_FOUND, JsonTree.object("surface_id", surfaceId));
        }
        SceneView.Target root = window;
        if (focusId != null) {
            root = scene.byId.get(SceneView.targetIdOf(focusId));
            if (root == null || (root.windowId != window.windowId)) {
                throw PcpError.of(PcpError.ELEMENT_NOT_FOUND, JsonTree.object("element_id", focusId, "surface_id", surfaceId));
            }
        }
        final int[] count = {0};
        final Map<String, Object> tree = element(scene, root, count, 0);
        if (count[0] > MAX_ELEMENTS) {
            throw new PcpError(PcpError.TEXT_TOO_LARGE, "Text too large: the element tree has more than " + MAX_ELEMENTS
                + " elements", JsonTree.object("surface_id", surfaceId, "max_elements", (long) MAX_ELEMENTS,
                "hint", "page with focus_id: query the children of one element at a time"));
        }
        return JsonTree.object("root", tree, "generation", DecimalU64.format(scene.generation));
    }

    private static Map<String, Object> element(final SceneView scene, final SceneView.Target t, final int[] count,
        final int depth) {
        count[0]++;
        final Map<String, Object> e = JsonTree.object("id", SceneView.elementId(t.id), "role", t.roleName(),
            "label", t.text, "bounds", t.bounds(), "actions", t.actions(), "states", t.states());
        final List<Object> children = new ArrayList<>();
        if (count[0] <= MAX_ELEMENTS && depth < JsonTree.MAX_DEPTH / 2 - 4) {
            for (final SceneView.Target child : scene.children(t.id)) {
                children.add(element(scene, child, count, depth + 1));
            }
        }
        e.put("children", children);
        return e;
    }

    @Override
    public synchronized Map<String, Object> invokeAction(final String surfaceId, final String elementId,
        final String actionName, final Object value) throws PcpError {
        for (int attempt = 0; ; attempt++) {
            final SceneView scene = scene();
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
                throw PcpCoreService.invalidParams("value", t.role == Role.SLIDER
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
            throw PcpCoreService.invalidParams("value", "select's value names a child of the element: its element id or "
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
            final AgentClient c = client();
            final ActionBatchBuilder b = batch.clearActions().requestId(requestId++)
                .policy(AgentAbi.POLICY_STOP_ON_FAILURE).deadlineNs(System.nanoTime() + BATCH_DEADLINE_NS)
                .expectGeneration(generation);
            if (kind == ActionKind.TEXT) {
                if (!(value instanceof String) || ((String) value).isEmpty()) {
                    throw PcpCoreService.invalidParams("value", "set_value needs a non-empty string");
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
            dropClient();
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
            throw PcpCoreService.invalidParams("value", "scroll takes a non-zero integer of lines, -100..100");
        }
        return ((Long) value).intValue();
    }

    @Override
    public Map<String, Object> systemState() {
        // Lock state needs the session's screensaver service, which this owner does not watch yet.
        return JsonTree.object("input_mode", display != null ? "x11" : "none", "display",
            display == null ? JsonTree.NULL : display, "lock_state", "unknown");
    }

    @Override
    public synchronized void close() {
        dropClient();
        idle.close();
    }
}
