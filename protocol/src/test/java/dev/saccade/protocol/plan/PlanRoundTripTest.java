package dev.saccade.protocol.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/** Plans and completions written by the encoder and flyweights read back field for field. */
class PlanRoundTripTest {
    private final PlanValidator validator = new PlanValidator();

    @Test
    void everySamplePlanIsValidAndItsTotalSizeIsItsLength() {
        for (final byte[] plan : PlanSamples.plans()) {
            assertEquals(PlanValidator.VALID, validator.validatePlan(Bytes.wrapForRead(plan), 0, plan.length),
                () -> PlanValidator.reason(validator.validatePlan(Bytes.wrapForRead(plan), 0, plan.length)));
            final ActionPlanFlyweight view = new ActionPlanFlyweight().wrap(Bytes.wrapForRead(plan), 0);
            assertEquals(plan.length, view.totalSize());
        }
    }

    @Test
    void clickPlanReadsBackCommandByCommand() {
        final byte[] bytes = PlanSamples.plans().get(0);
        final ActionPlanFlyweight plan = new ActionPlanFlyweight().wrap(Bytes.wrapForRead(bytes), 0);
        assertEquals(1, plan.planId());
        assertEquals(5_000_000_000L, plan.deadlineNs());
        assertEquals(42, plan.validatedGeneration());
        assertEquals(7, plan.permissionEpoch());
        assertEquals(0, plan.leaseId());
        assertEquals(2, plan.actionCount());
        assertEquals(12, plan.commandCount());
        assertEquals(0, plan.textSize());
        assertFalse(plan.keepHeld());
        final int[][] expected = {
            {PlanOp.MOVE, 0, 100 << 8, 200 << 8},
            {PlanOp.MODIFIERS_DOWN, 0, Modifier.SHIFT | Modifier.CONTROL, 0},
            {PlanOp.BUTTON_DOWN, 0, Button.LEFT, 0},
            {PlanOp.BUTTON_UP, 0, Button.LEFT, 0},
            {PlanOp.MODIFIERS_UP, 0, Modifier.SHIFT | Modifier.CONTROL, 0},
            {PlanOp.ACTION_END, 0, 0, 0},
            {PlanOp.MOVE, 1, 300 << 8, 40 << 8},
            {PlanOp.BUTTON_DOWN, 1, Button.RIGHT, 0},
            {PlanOp.BUTTON_UP, 1, Button.RIGHT, 0},
            {PlanOp.BUTTON_DOWN, 1, Button.RIGHT, 0},
            {PlanOp.BUTTON_UP, 1, Button.RIGHT, 0},
            {PlanOp.ACTION_END, 1, 0, 0},
        };
        for (int i = 0; i < expected.length; i++) {
            final PlanCommandFlyweight c = plan.command(i);
            assertEquals(expected[i][0], c.op(), "op " + i);
            assertEquals(expected[i][1], c.actionIndex(), "action " + i);
            assertEquals(expected[i][2], c.a(), "a " + i);
            assertEquals(expected[i][3], c.b(), "b " + i);
            assertEquals(0, c.c());
            assertEquals(0, c.d());
            assertEquals(0, c.flags());
        }
    }

    @Test
    void textSlicesReadBackAsTheOriginalUtf8() {
        final byte[] bytes = PlanSamples.plans().get(1);
        final BytesStore<?, ?> store = Bytes.wrapForRead(bytes);
        final ActionPlanFlyweight plan = new ActionPlanFlyweight().wrap(store, 0);
        final byte[] utf8 = PlanSamples.TEXT.getBytes(StandardCharsets.UTF_8);
        assertEquals(utf8.length, plan.textSize());
        final StringBuilder typed = new StringBuilder();
        for (int i = 0; i < plan.commandCount(); i++) {
            final PlanCommandFlyweight c = plan.command(i);
            if (c.op() == PlanOp.TEXT) {
                final byte[] slice = new byte[(int) c.textLength()];
                for (int k = 0; k < slice.length; k++) {
                    slice[k] = store.readByte(plan.textStart() + c.textOffset() + k);
                }
                typed.append(new String(slice, StandardCharsets.UTF_8));
            }
        }
        assertEquals(PlanSamples.TEXT, typed.toString());
    }

    @Test
    void holdPlanKeepsInputHeldUnderItsLease() {
        final ActionPlanFlyweight plan = new ActionPlanFlyweight().wrap(Bytes.wrapForRead(PlanSamples.plans().get(3)), 0);
        assertTrue(plan.keepHeld());
        assertEquals(99, plan.leaseId());
    }

    @Test
    void theLargestLegalPlanIsValid() {
        final byte[] largest = PlanSamples.largest();
        assertEquals(ActionPlanFlyweight.MAX_PLAN_BYTES, largest.length);
        assertEquals(PlanValidator.VALID, validator.validatePlan(Bytes.wrapForRead(largest), 0, largest.length));
    }

    @Test
    void encoderRefusesMoreThanTheLimitsOrTheBuffer() {
        final ActionPlanEncoder e = new ActionPlanEncoder();
        final BytesStore<?, byte[]> big = BytesStore.wrap(new byte[ActionPlanFlyweight.MAX_PLAN_BYTES + 64]);
        e.wrap(big, 0, big.capacity()).header(1, 1, 1, 1, 0, 1, 0);
        for (int i = 0; i <= ActionPlanFlyweight.MAX_COMMANDS; i++) {
            e.move(0, i, i);
        }
        assertTrue(e.overflowed());
        assertEquals(-1, e.finish());

        final BytesStore<?, byte[]> small = BytesStore.wrap(new byte[64 + 32 * 2]);
        e.wrap(small, 0, small.capacity()).header(1, 1, 1, 1, 0, 1, 0).move(0, 1, 1).actionEnd(0);
        assertEquals(128, e.finish());
        e.wrap(small, 0, small.capacity()).header(1, 1, 1, 1, 0, 1, 0).move(0, 1, 1).move(0, 2, 2).actionEnd(0);
        assertEquals(-1, e.finish());
        e.wrap(small, 0, small.capacity()).header(1, 1, 1, 1, 0, 1, 0)
            .text(0, BytesStore.wrap("abcdefghijklmnopqrstuvwxyzabcdefghijk".getBytes(StandardCharsets.US_ASCII)), 0, 37);
        assertEquals(-1, e.finish(), "32 bytes of command and 37 of text do not fit 64");
    }

    @Test
    void encoderWritesAtAnOffsetAndNothingOutsideThePlan() {
        final ActionPlanEncoder e = new ActionPlanEncoder();
        final byte[] raw = new byte[400];
        java.util.Arrays.fill(raw, (byte) 0x5A);
        final BytesStore<?, byte[]> store = BytesStore.wrap(raw);
        e.wrap(store, 100, 200).header(9, 1, 1, 1, 0, 1, 0).keyDown(0, 0x28).keyUp(0, 0x28)
            .text(0, BytesStore.wrap("ok".getBytes(StandardCharsets.US_ASCII)), 0, 2).actionEnd(0);
        final int size = e.finish();
        assertEquals(64 + 4 * 32 + 2, size);
        assertEquals(PlanValidator.VALID, validator.validatePlan(store, 100, size));
        for (int i = 0; i < 100; i++) {
            assertEquals(0x5A, raw[i]);
        }
        for (int i = 100 + size; i < raw.length; i++) {
            assertEquals(0x5A, raw[i]);
        }
    }

    @Test
    void completionRoundTripsWithItsPhysicalState() {
        final List<byte[]> completions = PlanSamples.completions();
        for (final byte[] bytes : completions) {
            assertEquals(PlanValidator.VALID, validator.validateCompletion(Bytes.wrapForRead(bytes), 0, bytes.length));
        }
        final PlanCompletionFlyweight c = new PlanCompletionFlyweight().wrap(Bytes.wrapForRead(completions.get(0)), 0);
        assertEquals(1, c.planId());
        assertEquals(ResultCode.OK, c.result());
        assertEquals(0, c.platformError());
        assertEquals(2, c.completedActions());
        assertEquals(AgentAbi.NO_FAILED_ACTION, c.failedActionIndex());
        assertEquals(12, c.commandsExecuted());
        assertEquals(300 << 8, c.physicalState().pointerXQ8());
        assertEquals(40 << 8, c.physicalState().pointerYQ8());
        assertEquals(7, c.physicalState().permissionEpoch());
        assertEquals(1, c.physicalState().physicalSequence());
    }
}
