package dev.saccade.cli;

import static dev.saccade.cli.McpProcess.INITIALIZE;
import static dev.saccade.cli.McpProcess.tool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rejection reasons (mcp.md §8 "Reasons"): a rejected act says, in its text and structuredContent,
 * which check failed and what to do next, against a real service on a real socket; the result
 * code stays the ABI's.
 */
class McpRejectionReasonsTest {
    @Test
    void eachRejectionNamesTheFailedCheckAndTheNextStep(@TempDir final Path dir) throws Exception {
        final Path socket = dir.resolve("agent.sock");
        final ActingOwner owner = ActingOwner.start(socket);
        try (McpProcess mcp = McpProcess.start(socket)) {
            mcp.call(INITIALIZE);
            final long g = owner.publish();
            int id = 2;

            Map<String, Object> r = act(mcp, id++, "{\"kind\":\"click\",\"targetId\":\"" + InProcessOwner.DIALOG
                + "\",\"generation\":\"" + g + "\"}");
            assertRejected(r, -4, "lacks-capability",
                "Action rejected: target not found. The target lacks CLICK (it is a window target: use kind 'window').");

            r = act(mcp, id++, "{\"kind\":\"window\",\"targetId\":\"" + InProcessOwner.OK + "\"}");
            assertRejected(r, -4, "lacks-capability", "Action rejected: target not found. The target lacks"
                + " WINDOW_ACTIVATE (it accepts kind 'click', 'scroll', 'drag', 'invoke': use one of those).");

            r = act(mcp, id++, "{\"kind\":\"click\",\"targetId\":\"424242\"}");
            assertRejected(r, -4, "target-gone", "Action rejected: target not found. The target 424242 is gone from"
                + " the scene (generation " + g + "): observe again.");

            r = act(mcp, id++, "{\"kind\":\"click\",\"targetId\":\"" + InProcessOwner.OK + "\",\"xQ8\":256,\"yQ8\":256}");
            assertRejected(r, -4, "point-outside", "Action rejected: target not found. The point 1,1 lies outside the"
                + " target's bounds 300,350 60x30: omit xQ8/yQ8 to use its safe point.");

            final long covered = owner.publishCovered();
            r = act(mcp, id++, "{\"kind\":\"click\",\"targetId\":\"" + InProcessOwner.OK + "\",\"generation\":\"" + g
                + "\"}");
            assertRejected(r, -3, "scene-changed", "Action rejected: stale generation. The scene changed since"
                + " generation " + g + " (now " + covered + "): observe again, or act without the generation"
                + " precondition.");

            r = act(mcp, id++, "{\"kind\":\"click\",\"targetId\":\"" + InProcessOwner.OK + "\",\"generation\":\""
                + covered + "\"}");
            assertRejected(r, -4, "occluded", "Action rejected: target not found. The target is occluded by window"
                + " 'Save As' (" + InProcessOwner.OTHER_WINDOW + "): activate the target's window (kind 'window') or"
                + " close that one, then observe again.");

            r = act(mcp, id++, "{\"kind\":\"text\",\"targetId\":\"" + InProcessOwner.FILE_NAME + "\",\"text\":\"a\"}");
            assertRejected(r, -4, "disabled", "Action rejected: target not found. The target is disabled (greyed"
                + " out): make it enabled first, e.g. fill in what it needs.");
            assertEquals(0, owner.executor.plans.size(), "nothing was planned for input");
        } finally {
            owner.stop();
        }
    }

    /** D24: a text act the helper refused under the user's Control says so, and what to do next. */
    @Test
    @SuppressWarnings("unchecked")
    void aTextRefusedUnderTheUsersControlSaysToWaitForThem(@TempDir final Path dir) throws Exception {
        final Path socket = dir.resolve("agent.sock");
        final ActingOwner owner = ActingOwner.start(socket);
        try (McpProcess mcp = McpProcess.start(socket)) {
            mcp.call(INITIALIZE);
            owner.publish();
            owner.executor.planResult = ResultCode.PLATFORM_BUSY;
            owner.executor.physical.userModifiers(Modifier.CONTROL | Modifier.ALT);
            final Map<String, Object> r = act(mcp, 2, "{\"kind\":\"text\",\"targetId\":\"" + InProcessOwner.FILE_NAME
                + "\",\"text\":\"a\"}");
            assertRejected(r, -14, "user-holds-modifier", "Action rejected: backend failure. The user holds Control+Alt"
                + " on their keyboard (physical.userModifiers), so typed characters would be shortcuts: nothing was"
                + " typed; try again once they let go.");
            final Map<String, Object> physical = (Map<String, Object>) ((Map<String, Object>) r.get("structuredContent"))
                .get("physical");
            assertEquals(Modifier.CONTROL | Modifier.ALT, ((Number) physical.get("userModifiers")).intValue());
        } finally {
            owner.stop();
        }
    }

    private static Map<String, Object> act(final McpProcess mcp, final int id, final String arguments) throws Exception {
        final String line = mcp.call(tool(id, "saccade_act", arguments));
        @SuppressWarnings("unchecked")
        final Map<String, Object> result = (Map<String, Object>) Json.object(line.getBytes(StandardCharsets.UTF_8))
            .get("result");
        return result;
    }

    @SuppressWarnings("unchecked")
    private static void assertRejected(final Map<String, Object> r, final int code, final String check, final String text) {
        assertEquals(true, r.get("isError"), r.toString());
        assertEquals(text, ((Map<String, Object>) ((java.util.List<?>) r.get("content")).get(0)).get("text"), r.toString());
        final Map<String, Object> s = (Map<String, Object>) r.get("structuredContent");
        assertEquals(code, ((Number) s.get("result")).intValue(), s.toString());
        assertEquals(check, s.get("reason"), s.toString());
        final String hint = (String) s.get("hint");
        assertTrue(text.endsWith(Character.toUpperCase(hint.charAt(0)) + hint.substring(1) + "."), s.toString());
    }
}
