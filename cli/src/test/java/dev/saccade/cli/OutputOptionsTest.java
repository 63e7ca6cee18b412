package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/** How a completion reaches standard output: raw bytes, or the CompletionJson view. */
class OutputOptionsTest {
    private static final int AT = 4;
    private final BytesStore<?, byte[]> frame = BytesStore.wrap(new byte[1024]);
    private int length;

    /** An observe completion with one button "OK" (as the service lays it out, spec §5.5). */
    private void oneButtonCompletion() {
        final CompletionFlyweight c = new CompletionFlyweight().wrap(frame, AT).clear();
        length = CompletionFlyweight.LENGTH + TargetFlyweight.LENGTH + 2;
        c.header().set(CompletionFlyweight.LENGTH, AgentAbi.OBSERVE_COMPLETION, AgentAbi.FLAG_TRUNCATED);
        c.requestId(2).result(0).platformError(0).grantedCapabilityBits(1)
            .targetCount(1).targetStride(TargetFlyweight.LENGTH).targetsOffset(CompletionFlyweight.LENGTH)
            .totalSize(length);
        c.generation().generation(-2L).sceneEpoch(-2L).windowId(7).displayId(1);
        c.scope().kind(ScopeKind.ACTIVE_WINDOW).sourceMode(SourceMode.FUSED).stableId(7).rect(25600, 25600, 512, 384);
        final TargetFlyweight t = new TargetFlyweight().wrap(frame, AT + CompletionFlyweight.LENGTH).clear();
        t.targetId(1002).parentId(1001).windowId(7).displayId(1)
            .bounds(300 * 256, 350 * 256, 60 * 256 + 128, 30 * 256)
            .safePoint(330 * 256, 365 * 256)
            .capabilityBits(TargetCapability.CLICK | TargetCapability.INVOKE)
            .flags(TargetFlag.ACTIONABLE)
            .role(Role.BUTTON)
            .sourceBits(SourceBit.ACCESSIBILITY)
            .confidenceQ16(60_000)
            .textOffset(CompletionFlyweight.LENGTH + TargetFlyweight.LENGTH).textSize(2)
            .order(0);
        frame.write(AT + CompletionFlyweight.LENGTH + TargetFlyweight.LENGTH, "OK".getBytes(StandardCharsets.UTF_8));
        assertEquals(CompletionValidator.VALID, new CompletionValidator().validate(frame, AT, length, 0));
    }

    private static OutputOptions output(final OutputStream stdout, final boolean json) {
        final OutputOptions output = new OutputOptions(stdout);
        output.json = json;
        return output;
    }

    @Test
    void binaryOutputIsExactlyTheCompletionBytes() throws IOException {
        oneButtonCompletion();
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();

        output(stdout, false).write(frame, AT, length);

        final byte[] expected = new byte[length];
        frame.read(AT, expected, 0, length);
        assertArrayEquals(expected, stdout.toByteArray());
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonIsOnePrettyObjectWithNamesDesktopUnitsAndDecimalStrings() throws IOException {
        oneButtonCompletion();
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();

        output(stdout, true).write(frame, AT, length);

        final String text = stdout.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("{\n"), text);
        assertTrue(text.endsWith("}\n"), "one object and a newline: " + text);
        assertTrue(text.contains("\n  \"kind\" : \"OBSERVE_COMPLETION\""), "pretty-printed: " + text);
        final Map<String, Object> json = Json.object(stdout.toByteArray());
        assertEquals("OBSERVE_COMPLETION", json.get("kind"));
        assertEquals("2", json.get("request_id"));
        assertEquals("OK", json.get("result"));
        assertEquals(0, ((Number) json.get("result_code")).intValue());
        assertEquals(List.of("TRUNCATED"), json.get("flags"));
        assertEquals(List.of("OBSERVE"), json.get("granted"));
        assertEquals("18446744073709551614", Json.field(json, "generation").get("generation"), "u64 as decimal string");
        assertEquals("ACTIVE_WINDOW", Json.field(json, "scope").get("kind"));
        assertEquals(100, ((Number) Json.field(Json.field(json, "scope"), "rect").get("x")).intValue());
        assertEquals(1, ((Number) json.get("target_count")).intValue());
        final Map<String, Object> target = ((List<Map<String, Object>>) json.get("targets")).get(0);
        assertEquals("1002", target.get("target_id"));
        assertEquals("1001", target.get("parent_id"));
        assertEquals("BUTTON", target.get("role"));
        assertEquals("OK", target.get("text"));
        assertEquals(List.of("CLICK", "INVOKE"), target.get("capabilities"));
        assertEquals(List.of("ACTIONABLE"), target.get("flags"));
        assertEquals(List.of("ACCESSIBILITY"), target.get("sources"));
        assertEquals(60.5, ((Number) Json.field(target, "bounds").get("width")).doubleValue(), "Q8 in desktop units");
        assertEquals(330, ((Number) Json.field(target, "safe_point").get("x")).intValue());
    }

    @Test
    void aFailingStandardOutputIsAnOutputFailure() {
        oneButtonCompletion();
        final OutputStream closed = new OutputStream() {
            @Override
            public void write(final int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };

        final OutputFailedException e =
            assertThrows(OutputFailedException.class, () -> output(closed, false).write(frame, AT, length));

        assertEquals("cannot write the result to standard output: Broken pipe", e.getMessage());
        assertEquals(ExitCodes.OUTPUT, FailureHandler.exitCodeOf(e));
        assertThrows(OutputFailedException.class, () -> output(closed, true).write(frame, AT, length));
    }
}
