package dev.saccade.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ControlRequestTest {
    @Test
    void shouldRoundTripEveryCommand() {
        assertEquals("{\"command\":\"status\"}", ControlRequest.status());
        assertEquals("{\"command\":\"restart\",\"target\":\"helper\"}", ControlRequest.restart("helper"));
        assertEquals("{\"command\":\"upgrade\",\"to\":\"/opt/saccade-2\"}", ControlRequest.upgrade(Path.of("/opt/saccade-2")));
        assertEquals("{\"command\":\"stop\"}", ControlRequest.stop());
        assertEquals("all", ControlRequest.parse(ControlRequest.restart("all")).argument());
        assertEquals("owner", ControlRequest.parse("{\"command\":\"restart\"}").argument(), "owner by default");
        assertEquals("/opt/saccade-2", ControlRequest.parse(ControlRequest.upgrade(Path.of("/opt/saccade-2"))).argument());
    }

    @Test
    void shouldRefuseBadRequestsWithAReason() {
        final String[] bad = {"", "[]", "{", "{\"command\":1}", "{\"command\":\"reboot\"}", "{}",
            "{\"command\":\"restart\",\"target\":\"x\"}", "{\"command\":\"upgrade\",\"to\":\"relative/dist\"}",
            "{\"command\":\"upgrade\"}", "{\"command\":\"status\",\"extra\":\"x\"}", "{\"command\":\"status\"} {}",
            "{\"command\":\"status\",\"command\":{\"a\":1}}"};
        for (final String line : bad) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ControlRequest.parse(line), line);
            assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), line);
        }
        assertEquals("{\"ok\":false,\"error\":\"a \\\"quoted\\\" reason\"}", ControlRequest.error("a \"quoted\" reason"));
    }
}
