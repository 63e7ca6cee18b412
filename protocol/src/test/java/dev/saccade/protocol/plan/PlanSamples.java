package dev.saccade.protocol.plan;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;

/** Valid plans and completions of every shape, as exact-size byte arrays: round-trip and fuzz seeds. */
final class PlanSamples {
    static final String TEXT = "héllo wörld ✓ 😀";

    private PlanSamples() {
    }

    static List<byte[]> plans() {
        final List<byte[]> plans = new ArrayList<>();
        final ActionPlanEncoder e = new ActionPlanEncoder();
        final BytesStore<?, byte[]> buffer = BytesStore.wrap(new byte[ActionPlanFlyweight.MAX_PLAN_BYTES]);
        final byte[] utf8 = TEXT.getBytes(StandardCharsets.UTF_8);
        final BytesStore<?, byte[]> text = BytesStore.wrap(utf8);

        // A click with modifiers and a double click.
        e.wrap(buffer, 0, buffer.capacity()).header(1, 5_000_000_000L, 42, 7, 0, 2, 0)
            .move(0, 100 << 8, 200 << 8).modifiersDown(0, Modifier.SHIFT | Modifier.CONTROL)
            .buttonDown(0, Button.LEFT).buttonUp(0, Button.LEFT)
            .modifiersUp(0, Modifier.SHIFT | Modifier.CONTROL).actionEnd(0)
            .move(1, 300 << 8, 40 << 8).buttonDown(1, Button.RIGHT).buttonUp(1, Button.RIGHT)
            .buttonDown(1, Button.RIGHT).buttonUp(1, Button.RIGHT).actionEnd(1);
        plans.add(copy(buffer, e.finish()));

        // TEXT: focus click, then two slices of text.
        e.wrap(buffer, 0, buffer.capacity()).header(2, 9_000_000_000L, 43, 7, 0, 1, 0)
            .move(0, 10 << 8, 10 << 8).buttonDown(0, Button.LEFT).buttonUp(0, Button.LEFT)
            .text(0, text, 0, 6).text(0, text, 6, utf8.length - 6).actionEnd(0);
        plans.add(copy(buffer, e.finish()));

        // KEY_CHORD, SCROLL, WINDOW_ACTIVATE, WINDOW_CYCLE, RELEASE_ALL.
        e.wrap(buffer, 0, buffer.capacity()).header(3, 1L, 44, 8, 0, 4, 0)
            .modifiersDown(0, Modifier.CONTROL).keyDown(0, 0x04).keyUp(0, 0x04).modifiersUp(0, Modifier.CONTROL)
            .actionEnd(0).move(1, 5, 6).scroll(1, 0, -3 << 8).actionEnd(1)
            .windowActivate(2, 0x1e00007L).actionEnd(2).windowCycle(3, true).releaseAll(3).actionEnd(3);
        plans.add(copy(buffer, e.finish()));

        // HOLD: ends with the button held under a lease.
        e.wrap(buffer, 0, buffer.capacity()).header(4, 2L, 45, 8, 99, 1, ActionPlanFlyweight.KEEP_HELD)
            .move(0, 1 << 8, 2 << 8).buttonDown(0, Button.MIDDLE).actionEnd(0);
        plans.add(copy(buffer, e.finish()));

        // DRAG_DROP.
        e.wrap(buffer, 0, buffer.capacity()).header(5, 3L, 46, 8, 0, 1, 0)
            .move(0, 1 << 8, 1 << 8).buttonDown(0, Button.LEFT).move(0, 50 << 8, 60 << 8)
            .buttonUp(0, Button.LEFT).actionEnd(0);
        plans.add(copy(buffer, e.finish()));

        // No commands at all (a batch of only direct kinds still gets a plan id).
        e.wrap(buffer, 0, buffer.capacity()).header(6, 4L, 47, 8, 0, 0, 0);
        plans.add(copy(buffer, e.finish()));
        return plans;
    }

    /** The largest legal plan: MAX_COMMANDS commands over 64 actions and MAX_TEXT bytes of text. */
    static byte[] largest() {
        final ActionPlanEncoder e = new ActionPlanEncoder();
        final BytesStore<?, byte[]> buffer = BytesStore.wrap(new byte[ActionPlanFlyweight.MAX_PLAN_BYTES]);
        final byte[] ascii = new byte[ActionPlanFlyweight.MAX_TEXT];
        Arrays.fill(ascii, (byte) 'x');
        e.wrap(buffer, 0, buffer.capacity()).header(7, 5L, 48, 9, 0, AgentAbi.MAX_ACTIONS, 0);
        e.text(0, BytesStore.wrap(ascii), 0, ascii.length);
        final int perAction = ActionPlanFlyweight.MAX_COMMANDS / AgentAbi.MAX_ACTIONS;
        for (int action = 0; action < AgentAbi.MAX_ACTIONS; action++) {
            final int first = action == 0 ? 1 : 0;
            for (int k = first; k < perAction - 1; k++) {
                e.move(action, k, action);
            }
            e.actionEnd(action);
        }
        return copy(buffer, e.finish());
    }

    static List<byte[]> completions() {
        final List<byte[]> completions = new ArrayList<>();
        final PlanCompletionFlyweight c = new PlanCompletionFlyweight();
        final byte[] ok = new byte[PlanCompletionFlyweight.LENGTH];
        c.wrap(BytesStore.wrap(ok), 0).planId(1).result(ResultCode.OK).platformError(0).completedActions(2)
            .failedActionIndex(AgentAbi.NO_FAILED_ACTION).commandsExecuted(12);
        c.physicalState().pointer(300 << 8, 40 << 8).buttons(0).modifiers(0).activeLeaseId(0)
            .permissionEpoch(7).physicalSequence(1).flags(0);
        completions.add(ok);
        final byte[] timeout = new byte[PlanCompletionFlyweight.LENGTH];
        c.wrap(BytesStore.wrap(timeout), 0).planId(2).result(ResultCode.TIMEOUT)
            .platformError(ResultCode.platformErrorFor(ResultCode.TIMEOUT)).completedActions(0).failedActionIndex(0)
            .commandsExecuted(3);
        c.physicalState().pointer(10 << 8, 10 << 8).physicalSequence(2);
        completions.add(timeout);
        return completions;
    }

    static byte[] copy(final BytesStore<?, byte[]> buffer, final int size) {
        if (size < 0) {
            throw new AssertionError("encoder overflowed");
        }
        return Arrays.copyOf(buffer.underlyingObject(), size);
    }
}
