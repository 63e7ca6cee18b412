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
        final ScenePacket p = store.claim();
        p.frame(1, System.nanoTime()).epochs(1, 1).state(4242, XID, 1, 1, q8(100), q8(100), q8(400), q8(300));
        add(p, WINDOW, 0, 100, 100, 400, 300, Role.WINDOW, TargetCapability.WINDOW_ACTIVATE, "Dialog");
        add(p, BUTTON, WINDOW, 300, 350, 60, 30, Role.BUTTON,
            TargetCapability.CLICK | TargetCapability.INVOKE | TargetCapability.SCROLL, "OK");
        add(p, FIELD, WINDOW, 120, 150, 300, 24, Role.TEXT_FIELD, TargetCapability.CLICK | TargetCapability.TEXT, "");
        add(p, PICTURE, WINDOW, 120, 200, 50, 50, Role.IMAGE, 0, "logo");
        store.publish(p);
        scene = new AgentScene(endpoint.path(), null, Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() throws Exception {
        scene.close();
        endpoint.close();
        store.close();
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
