package dev.saccade.pcp;

import dev.saccade.client.DecimalU64;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * PCP's desktop, read and acted on through the owner's own agent endpoint (the binary ABI), so
 * PCP sees exactly the generations an agent sees and acts only through the agent action path
 * (the owner's planner checks every PCP action as it checks an agent's): no second way to inject
 * input, and no connection of PCP's own to the display server.
 *
 * <p>query.surface reports window targets; the owning process (for {@code app_id}) and the
 * minimized state are the window facts the endpoint sends a connection that asked for them
 * (agent-abi §2, WINDOW_FACTS).
 *
 * <p>This class answers the queries; invoke.action is planned and run by {@link ActionInvocation}
 * and both reach the endpoint through one {@link AgentConnection}.
 *
 * <p>Not for the owner thread: each call is a blocking round trip. Calls are serialised on this
 * object (one agent connection); events use their own connection ({@link SceneEvents}).
 */
public final class AgentScene implements PcpScene, AutoCloseable {
    /** Beyond this many elements query.elements answers -32020 and asks for a focus_id. */
    public static final int MAX_ELEMENTS = 2_000;

    /** The display the owner serves, for query.session_context; PCP never connects to it. */
    private final String display;
    /** Guarded by this object's monitor, like everything it reaches. */
    private final AgentConnection connection;
    /** Guarded by this object's monitor. */
    private final ActionInvocation actions;

    public AgentScene(final Path endpoint, final String display, final Duration timeout) {
        this.display = display;
        this.connection = new AgentConnection(endpoint, timeout, this);
        this.actions = new ActionInvocation(connection);
    }

    @Override
    public synchronized List<Map<String, Object>> surfaces() throws PcpError {
        final SceneView scene = connection.scene();
        final List<Map<String, Object>> out = new ArrayList<>();
        for (final SceneView.Target w : scene.windows()) {
            final long facts = w.processId();
            final long pid = facts != 0 ? facts : (w.windowId == scene.activeWindowId ? scene.foregroundPid : 0);
            final String state = w.windowId == scene.activeWindowId ? "focused" : w.minimized() ? "minimized" : "normal";
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

    @Override
    public synchronized Map<String, Object> elements(final String surfaceId, final String focusId) throws PcpError {
        final SceneView scene = connection.scene();
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
        final String actionName, final Object value, final long generation) throws PcpError {
        return actions.invoke(surfaceId, elementId, actionName, value, generation);
    }

    @Override
    public Map<String, Object> systemState() {
        // Lock state needs the session's screensaver service, which this owner does not watch yet.
        return JsonTree.object("input_mode", display != null ? "x11" : "none", "display",
            display == null ? JsonTree.NULL : display, "lock_state", "unknown");
    }

    @Override
    public synchronized void close() {
        connection.close();
    }
}
