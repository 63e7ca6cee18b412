package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.TargetIds;
import dev.saccade.owner.AgentService;
import dev.saccade.owner.OwnerEndpoint;
import dev.saccade.owner.RecordingExecutor;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * invoke.action's input path: PCP's scene is a client of a real agent endpoint (real socket,
 * real AgentService and ActionPlanner) whose executor records the plans instead of driving an
 * input helper. Each PCP action becomes the agent batch it should, with the generation
 * precondition, and a failing executor is -32012.
 */
@Timeout(30)
class PcpActionPathTest {
    private static final long XID = 77;
    private static final long WINDOW = TargetIds.window(XID);
    private static final long BUTTON = TargetIds.ACCESSIBILITY_NAMESPACE | 5;
    private static final long FIELD = TargetIds.ACCESSIBILITY_NAMESPACE | 6;
    private static final long PICTURE = TargetIds.ACCESSIBILITY_NAMESPACE | 7;
    private static final long OTHER_XID = 79;

    @TempDir
    Path dir;
    private SceneStore store;
    private RecordingExecutor executor;
    private OwnerEndpoint endpoint;
    private AgentScene scene;

    @BeforeEach
    void start() throws Exception {
        store = new SceneStore(4, 1_000, 1 << 16, SceneStore.seedGeneration(0));
        executor = new RecordingExecutor();
        endpoint = OwnerEndpoint.serve(dir.resolve("agent.sock"), store, 8, Duration.ofSeconds(1),
            new AgentService(store, executor, null));
        publish(100, 4242, XID);
        scene = new AgentScene(endpoint.path(), null, Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() throws Exception {
        scene.close();
        endpoint.close();
        store.close();
    }

    /**
     * A scene with the dialog at x = {@code windowX}, the foreground process {@code pid} and the
     * active window {@code active}, and a second window, minimized, of this test's own process.
     */
    private void publish(final int windowX, final long pid, final long active) {
        final ScenePacket p = store.claim();
        p.frame(1, System.nanoTime()).epochs(1, 1).state(pid, active, 1, 1, q8(windowX), q8(100), q8(400), q8(300));
        add(p, WINDOW, 0, windowX, 100, 400, 300, Role.WINDOW, TargetCapability.WINDOW_ACTIVATE, "Dialog");
        add(p, BUTTON, WINDOW, windowX + 200, 350, 60, 30, Role.BUTTON,
            TargetCapability.CLICK | TargetCapability.INVOKE | TargetCapability.SCROLL, "OK");
        add(p, FIELD, WINDOW, windowX + 20, 150, 300, 24, Role.TEXT_FIELD, TargetCapability.CLICK | TargetCapability.TEXT, "");
        add(p, PICTURE, WINDOW, windowX + 20, 200, 50, 50, Role.IMAGE, 0, "logo");
        final TargetFlyweight other = p.addTarget();
        other.targetId(TargetIds.window(OTHER_XID)).windowId(OTHER_XID).displayId(1).bounds(0, 0, q8(50), q8(50))
            .capabilityBits(TargetCapability.WINDOW_ACTIVATE).flags(TargetFlag.OCCLUDED).role(Role.WINDOW)
            .sourceBits(SourceBit.ACCESSIBILITY).order(p.targetCount() - 1)
            .states(TargetState.windowFacts(true, ProcessHandle.current().pid()));
        store.publish(p);
    }

    private static void add(final ScenePacket p, final long id, final long parent, final int x, final int y, final int w,
        final int h, final int role, final int capabilities, final String text) {
        final TargetFlyweight t = p.addTarget();
        t.targetId(id).parentId(parent).windowId(XID).displayId(1).bounds(q8(x), q8(y), q8(w), q8(h))
            .safePoint(q8(x + w / 2), q8(y + h / 2)).capabilityBits(capabilities).flags(TargetFlag.ACTIONABLE)
            .role(role).sourceBits(SourceBit.ACCESSIBILITY).confidenceQ16(0xFFFF).order(p.targetCount() - 1);
        final byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        p.text(t, b, 0, b.length);
    }

    private static int q8(final int px) {
        return px * RectQ8.ONE;
    }

    private static String el(final long id) {
        return "el-" + Long.toUnsignedString(id);
    }

    @Test
    void eachActionBecomesItsAgentBatch() throws Exception {
        final Map<String, Object> activated = scene.invokeAction("surface-77", el(BUTTON), "activate", null);
        assertEquals(true, activated.get("executed"));
        assertEquals("invoke", ((Map<?, ?>) activated.get("result")).get("via"));
        assertTrue(executor.lastPlan().containsAll(List.of("down 1", "up 1")), executor.lastPlan()::toString);

        scene.invokeAction("surface-77", el(BUTTON), "scroll", 2L);
        assertTrue(executor.lastPlan().contains("scroll 0," + 2 * RectQ8.ONE), executor.lastPlan()::toString);

        final int before = executor.plans.size();
        scene.invokeAction("surface-77", el(FIELD), "set_value", "hello");
        // focus click, ctrl+a, backspace, then TEXT (its own focus click, then typing): one plan each
        final List<String> typed = new java.util.ArrayList<>();
        executor.plans.subList(before, executor.plans.size()).forEach(typed::addAll);
        assertTrue(typed.contains("key down 0x4") && typed.contains("key down 0x2a") && typed.contains("text hello")
            && typed.indexOf("key down 0x2a") < typed.indexOf("text hello"), typed::toString);

        final Map<String, Object> tree = scene.elements("surface-77", null);
        final Map<?, ?> root = (Map<?, ?>) tree.get("root");
        assertEquals("Dialog", root.get("label"));
        assertEquals(3, ((List<?>) root.get("children")).size());
    }

    /**
     * query.surface from the endpoint's scene alone: this scene has no display at all (null), so
     * the other window's pid and minimized state can only have come as its window facts.
     */
    @Test
    void querySurfaceAnswersFromTheEndpointsSceneWithoutADisplay() throws Exception {
        final Map<String, Object> other = surface("surface-" + OTHER_XID);
        assertEquals(ProcessHandle.current().pid(), other.get("pid"));
        assertEquals("minimized", other.get("state"));
        assertEquals(ProcessHandle.current().info().command().map(c -> Path.of(c).getFileName().toString()).orElseThrow()
            .substring(0, 4), ((String) other.get("app_id")).substring(0, 4), "the process's name");
        final Map<String, Object> dialog = surface("surface-77");
        assertEquals("focused", dialog.get("state"));
        assertEquals(4242L, dialog.get("pid"), "no window facts: the foreground process of the active window");
        assertEquals("none", scene.systemState().get("input_mode"));
    }

    private Map<String, Object> surface(final String surfaceId) throws PcpError {
        for (final Map<String, Object> s : scene.surfaces()) {
            if (surfaceId.equals(s.get("surface_id"))) {
                return s;
            }
        }
        throw new AssertionError(surfaceId + " not listed");
    }

    /**
     * An action planned against a generation the desktop has left is refused by the owner's
     * preconditions before anything runs, and PCP says what changed.
     */
    @Test
    void anActionPlannedAgainstAnOlderSceneIsRefusedAndNothingRuns() throws Exception {
        final long planned = Long.parseUnsignedLong((String) scene.elements("surface-77", null).get("generation"));
        publish(150, 4242, XID); // the dialog moved
        final int before = executor.plans.size();
        final PcpError moved = assertThrows(PcpError.class,
            () -> scene.invokeAction("surface-77", el(BUTTON), "activate", null, planned));
        assertEquals(PcpError.ELEMENT_NOT_FOUND, moved.code());
        assertEquals("STALE_GENERATION", moved.data().get("reason"));
        assertEquals("surface_moved", moved.data().get("changed"), moved.data()::toString);
        assertEquals(Long.toUnsignedString(planned), moved.data().get("planned_generation"));

        final long second = Long.parseUnsignedLong((String) scene.elements("surface-77", null).get("generation"));
        publish(150, 5151, XID); // another process in front
        final PcpError process = assertThrows(PcpError.class,
            () -> scene.invokeAction("surface-77", el(FIELD), "set_value", "x", second));
        assertEquals("process", process.data().get("changed"), process.data()::toString);

        final long third = Long.parseUnsignedLong((String) scene.elements("surface-77", null).get("generation"));
        publish(150, 5151, OTHER_XID); // another window active
        final PcpError window = assertThrows(PcpError.class,
            () -> scene.invokeAction("surface-77", el(BUTTON), "scroll", 2L, third));
        assertEquals("window", window.data().get("changed"), window.data()::toString);
        assertEquals(before, executor.plans.size(), "no plan reached the executor");

        // Planned against the latest: acts.
        final long latest = Long.parseUnsignedLong((String) scene.elements("surface-77", null).get("generation"));
        assertEquals(true, scene.invokeAction("surface-77", el(BUTTON), "scroll", 2L, latest).get("executed"));
        assertEquals(before + 1, executor.plans.size());
    }

    @Test
    void refusalsAreTypedErrors() throws Exception {
        assertEquals(PcpError.ACTION_NOT_SUPPORTED, assertThrows(PcpError.class,
            () -> scene.invokeAction("surface-77", el(PICTURE), "activate", null)).code());
        assertEquals(PcpError.ELEMENT_NOT_FOUND, assertThrows(PcpError.class,
            () -> scene.invokeAction("surface-77", "el-12345", "activate", null)).code());
        assertEquals(PcpError.SURFACE_NOT_FOUND, assertThrows(PcpError.class,
            () -> scene.invokeAction("surface-78", el(BUTTON), "activate", null)).code());
        assertEquals(PcpError.INVALID_PARAMS, assertThrows(PcpError.class,
            () -> scene.invokeAction("surface-77", el(BUTTON), "scroll", "far")).code());
        executor.planResult = ResultCode.PLATFORM_BACKEND;
        final PcpError failed = assertThrows(PcpError.class, () -> scene.invokeAction("surface-77", el(BUTTON), "select", null));
        assertEquals(PcpError.INPUT_SIMULATION_FAILED, failed.code(), String.valueOf(failed.data()));
    }
}
