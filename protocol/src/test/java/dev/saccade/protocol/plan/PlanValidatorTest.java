package dev.saccade.protocol.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.ResultCode;
import java.util.Arrays;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/** Each plan and completion check fails with its own verdict. */
class PlanValidatorTest {
    private final PlanValidator validator = new PlanValidator();

    private int plan(final byte[] bytes) {
        return validator.validatePlan(Bytes.wrapForRead(bytes), 0, bytes.length);
    }

    private int completion(final byte[] bytes) {
        return validator.validateCompletion(Bytes.wrapForRead(bytes), 0, bytes.length);
    }

    private static byte[] click() {
        return PlanSamples.plans().get(0);
    }

    private static byte[] text() {
        return PlanSamples.plans().get(1);
    }

    private static BytesStore<?, byte[]> store(final byte[] bytes) {
        return BytesStore.wrap(bytes);
    }

    /** Offset of command i's field. */
    private static int cmd(final int i, final int field) {
        return ActionPlanFlyweight.COMMANDS_OFFSET + i * PlanCommandFlyweight.LENGTH + field;
    }

    @Test
    void headerChecks() {
        assertEquals(PlanValidator.BAD_LENGTH, plan(Arrays.copyOf(click(), 63)));
        byte[] p = click();
        store(p).writeLong(ActionPlanFlyweight.PLAN_ID_OFFSET, 0);
        assertEquals(PlanValidator.BAD_PLAN_ID, plan(p));
        p = click();
        assertEquals(PlanValidator.BAD_TOTAL_SIZE, plan(Arrays.copyOf(p, p.length + 8)));
        assertEquals(PlanValidator.BAD_TOTAL_SIZE, plan(Arrays.copyOf(p, p.length - 32)));
        store(p).writeInt(ActionPlanFlyweight.COMMAND_COUNT_OFFSET, ActionPlanFlyweight.MAX_COMMANDS + 1);
        assertEquals(PlanValidator.BAD_COMMAND_COUNT, plan(p));
        p = click();
        store(p).writeInt(ActionPlanFlyweight.COMMAND_COUNT_OFFSET, -1);
        assertEquals(PlanValidator.BAD_COMMAND_COUNT, plan(p), "u32 read unsigned");
        p = click();
        store(p).writeInt(ActionPlanFlyweight.TEXT_SIZE_OFFSET, ActionPlanFlyweight.MAX_TEXT + 1);
        assertEquals(PlanValidator.BAD_TEXT_SIZE, plan(p));
        p = click();
        store(p).writeInt(ActionPlanFlyweight.COMMAND_COUNT_OFFSET, 11);
        assertEquals(PlanValidator.BAD_TOTAL_SIZE, plan(p), "commands and text must add up to total_size");
        p = click();
        store(p).writeInt(ActionPlanFlyweight.FLAGS_OFFSET, 0x2);
        assertEquals(PlanValidator.BAD_FLAGS, plan(p));
        p = click();
        store(p).writeInt(ActionPlanFlyweight.RESERVED_OFFSET, 1);
        assertEquals(PlanValidator.BAD_FLAGS, plan(p));
        p = click();
        store(p).writeInt(ActionPlanFlyweight.ACTION_COUNT_OFFSET, 65);
        assertEquals(PlanValidator.BAD_ACTION_COUNT, plan(p));
        p = click();
        store(p).writeInt(ActionPlanFlyweight.FLAGS_OFFSET, ActionPlanFlyweight.KEEP_HELD);
        assertEquals(PlanValidator.BAD_LEASE, plan(p));
    }

    @Test
    void commandChecks() {
        byte[] p = click();
        store(p).writeShort(cmd(2, PlanCommandFlyweight.OP_OFFSET), (short) 0);
        assertEquals(PlanValidator.BAD_OP, plan(p));
        p = click();
        store(p).writeShort(cmd(2, PlanCommandFlyweight.OP_OFFSET), (short) (PlanOp.LAST + 1));
        assertEquals(PlanValidator.BAD_OP, plan(p));
        p = click();
        store(p).writeShort(cmd(2, PlanCommandFlyweight.FLAGS_OFFSET), (short) 1);
        assertEquals(PlanValidator.BAD_COMMAND_FLAGS, plan(p));
        p = click();
        store(p).writeShort(cmd(2, PlanCommandFlyweight.RESERVED_OFFSET), (short) 1);
        assertEquals(PlanValidator.BAD_COMMAND_FLAGS, plan(p));
        p = click();
        store(p).writeShort(cmd(11, PlanCommandFlyweight.ACTION_INDEX_OFFSET), (short) 2);
        assertEquals(PlanValidator.BAD_ACTION_INDEX, plan(p));
        p = click();
        store(p).writeShort(cmd(7, PlanCommandFlyweight.ACTION_INDEX_OFFSET), (short) 0);
        assertEquals(PlanValidator.BAD_ACTION_ORDER, plan(p), "action 0 after action 1 began");
        p = click();
        store(p).writeShort(cmd(6, PlanCommandFlyweight.OP_OFFSET), (short) PlanOp.ACTION_END);
        store(p).writeInt(cmd(6, PlanCommandFlyweight.A_OFFSET), 0);
        store(p).writeInt(cmd(6, PlanCommandFlyweight.B_OFFSET), 0);
        assertEquals(PlanValidator.BAD_ACTION_ORDER, plan(p), "action 1 after its ACTION_END");
    }

    @Test
    void argumentRules() {
        // command 2 is BUTTON_DOWN LEFT, 1 MODIFIERS_DOWN, 0 MOVE
        for (final int button : new int[] {0, 3, 8, -1}) {
            final byte[] p = click();
            store(p).writeInt(cmd(2, PlanCommandFlyweight.A_OFFSET), button);
            assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "button " + button);
        }
        for (final int modifiers : new int[] {0, 0x10, -1}) {
            final byte[] p = click();
            store(p).writeInt(cmd(1, PlanCommandFlyweight.A_OFFSET), modifiers);
            assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "modifiers " + modifiers);
        }
        byte[] p = click();
        store(p).writeLong(cmd(0, PlanCommandFlyweight.C_OFFSET), 1);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "MOVE with c");
        p = click();
        store(p).writeLong(cmd(1, PlanCommandFlyweight.D_OFFSET), 1);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "d is a duration of MOVE, SCROLL and BUTTON_DOWN only");
        p = click();
        store(p).writeLong(cmd(0, PlanCommandFlyweight.D_OFFSET), AgentAbi.MAX_ACTION_DURATION_NS);
        assertEquals(PlanValidator.VALID, plan(p), "a MOVE over 60 s");
        store(p).writeLong(cmd(2, PlanCommandFlyweight.D_OFFSET), 5_000_000_000L);
        assertEquals(PlanValidator.VALID, plan(p), "a BUTTON_DOWN with a 5 s lease");
        store(p).writeLong(cmd(0, PlanCommandFlyweight.D_OFFSET), AgentAbi.MAX_ACTION_DURATION_NS + 1);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "a duration above 60 s");
        store(p).writeLong(cmd(0, PlanCommandFlyweight.D_OFFSET), -1);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "a duration above 60 s, read as u64");
        p = click();
        store(p).writeInt(cmd(2, PlanCommandFlyweight.B_OFFSET), 1);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "BUTTON_DOWN with b");
        p = click();
        store(p).writeInt(cmd(5, PlanCommandFlyweight.A_OFFSET), 1);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "ACTION_END with a");

        final byte[] keys = PlanSamples.plans().get(2);
        // command 1 is KEY_DOWN 0x04, 6 SCROLL, 8 WINDOW_ACTIVATE, 10 WINDOW_CYCLE, 11 RELEASE_ALL
        p = keys.clone();
        store(p).writeInt(cmd(1, PlanCommandFlyweight.A_OFFSET), 0);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "key usage 0");
        p = keys.clone();
        store(p).writeInt(cmd(1, PlanCommandFlyweight.A_OFFSET), 0x10000);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "key usage above u16");
        p = keys.clone();
        store(p).writeInt(cmd(6, PlanCommandFlyweight.B_OFFSET), 0);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "scroll by nothing");
        p = keys.clone();
        store(p).writeInt(cmd(8, PlanCommandFlyweight.A_OFFSET), 1);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "WINDOW_ACTIVATE with a");
        p = keys.clone();
        store(p).writeInt(cmd(10, PlanCommandFlyweight.A_OFFSET), 2);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "WINDOW_CYCLE direction 2");
        p = keys.clone();
        store(p).writeLong(cmd(11, PlanCommandFlyweight.C_OFFSET), 5);
        assertEquals(PlanValidator.BAD_ARGUMENT, plan(p), "RELEASE_ALL with c");
        assertEquals(PlanValidator.VALID, plan(keys));
    }

    @Test
    void textSlicesMustLieInsideTheTextAndBeStrictUtf8() {
        // commands 3 and 4 are TEXT
        final byte[] good = text();
        final ActionPlanFlyweight view = new ActionPlanFlyweight().wrap(store(good), 0);
        final long textSize = view.textSize();
        byte[] p = good.clone();
        store(p).writeInt(cmd(3, PlanCommandFlyweight.B_OFFSET), 0);
        assertEquals(PlanValidator.BAD_TEXT_SLICE, plan(p), "empty slice");
        p = good.clone();
        store(p).writeInt(cmd(4, PlanCommandFlyweight.B_OFFSET), (int) textSize);
        assertEquals(PlanValidator.BAD_TEXT_SLICE, plan(p), "slice past the end");
        p = good.clone();
        store(p).writeInt(cmd(4, PlanCommandFlyweight.A_OFFSET), -1);
        assertEquals(PlanValidator.BAD_TEXT_SLICE, plan(p), "offset read unsigned, past the end");
        p = good.clone();
        store(p).writeInt(cmd(4, PlanCommandFlyweight.B_OFFSET), -1);
        assertEquals(PlanValidator.BAD_TEXT_SLICE, plan(p), "length read unsigned, past the end");
        p = good.clone();
        store(p).writeInt(cmd(3, PlanCommandFlyweight.B_OFFSET), 2); // "h\xC3": splits é
        assertEquals(PlanValidator.BAD_TEXT_ENCODING, plan(p));
        p = good.clone();
        store(p).writeByte(view.textStart(), (byte) 0xC0);
        assertEquals(PlanValidator.BAD_TEXT_ENCODING, plan(p), "overlong lead byte");
    }

    @Test
    void theAsciiFastPathAgreesWithTheStrictCheck() {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        final byte[][] pieces = {"a".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            "é".getBytes(java.nio.charset.StandardCharsets.UTF_8), "😀".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            {(byte) 0xC0}, {(byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90}};
        for (int n = 0; n < 20_000; n++) {
            final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            for (int k = random.nextInt(40); k > 0; k--) {
                final byte[] piece = pieces[random.nextInt(10) < 8 ? 0 : random.nextInt(pieces.length)];
                out.write(piece, 0, piece.length);
            }
            final byte[] text = out.toByteArray();
            final Bytes<byte[]> exact = Bytes.wrapForRead(text);
            assertEquals(dev.saccade.protocol.Utf8.isStrict(exact, 0, text.length),
                PlanValidator.isStrictUtf8(exact, 0, text.length), java.util.Arrays.toString(text));
        }
    }

    @Test
    void completionChecks() {
        final byte[] good = PlanSamples.completions().get(0);
        assertEquals(PlanValidator.VALID, completion(good));
        assertEquals(PlanValidator.BAD_LENGTH, completion(Arrays.copyOf(good, 79)));
        assertEquals(PlanValidator.BAD_LENGTH, completion(Arrays.copyOf(good, 81)));
        byte[] c = good.clone();
        store(c).writeLong(PlanCompletionFlyweight.PLAN_ID_OFFSET, 0);
        assertEquals(PlanValidator.BAD_PLAN_ID, completion(c));
        c = good.clone();
        store(c).writeInt(PlanCompletionFlyweight.RESULT_OFFSET, ResultCode.CAPACITY - 1);
        assertEquals(PlanValidator.BAD_RESULT, completion(c));
        c = good.clone();
        store(c).writeInt(PlanCompletionFlyweight.RESULT_OFFSET, 1);
        assertEquals(PlanValidator.BAD_RESULT, completion(c));
        c = good.clone();
        store(c).writeInt(PlanCompletionFlyweight.PLATFORM_ERROR_OFFSET, -14);
        assertEquals(PlanValidator.BAD_RESULT, completion(c));
        c = good.clone();
        store(c).writeInt(PlanCompletionFlyweight.COMPLETED_ACTIONS_OFFSET, 65);
        assertEquals(PlanValidator.BAD_PROGRESS, completion(c));
        c = good.clone();
        store(c).writeInt(PlanCompletionFlyweight.FAILED_ACTION_INDEX_OFFSET, 64);
        assertEquals(PlanValidator.BAD_PROGRESS, completion(c));
        c = good.clone();
        store(c).writeInt(PlanCompletionFlyweight.COMMANDS_EXECUTED_OFFSET, ActionPlanFlyweight.MAX_COMMANDS + 1);
        assertEquals(PlanValidator.BAD_PROGRESS, completion(c));
        c = good.clone();
        store(c).writeInt(PlanCompletionFlyweight.RESERVED_OFFSET, 1);
        assertEquals(PlanValidator.BAD_FLAGS, completion(c));
    }

    @Test
    void everyVerdictHasAReason() {
        for (int v = PlanValidator.VALID; v <= PlanValidator.BAD_PROGRESS; v++) {
            org.junit.jupiter.api.Assertions.assertNotEquals("unknown", PlanValidator.reason(v));
        }
        assertEquals(ResultCode.INVALID_MESSAGE, PlanValidator.resultFor(PlanValidator.BAD_OP));
        assertEquals(ResultCode.OK, PlanValidator.resultFor(PlanValidator.VALID));
    }
}
