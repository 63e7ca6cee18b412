package dev.saccade.ipc.link;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.plan.ActionPlanEncoder;
import dev.saccade.protocol.plan.ActionPlanFlyweight;
import dev.saccade.protocol.plan.PlanCommandFlyweight;
import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import dev.saccade.protocol.plan.PlanOp;
import dev.saccade.protocol.plan.PlanValidator;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Random valid plans for the link tests, and the test helpers' deterministic answer to a plan:
 * a completion whose physical_sequence is the CRC-32C of every byte of the plan as received, so
 * the owner can prove each plan crossed intact by computing the same answer from what it sent.
 */
final class LinkTestPlans {
    private static final byte[][] WORDS = {
        "hello".getBytes(StandardCharsets.UTF_8), " ".getBytes(StandardCharsets.UTF_8),
        "wörld".getBytes(StandardCharsets.UTF_8), "✓".getBytes(StandardCharsets.UTF_8),
        "😀".getBytes(StandardCharsets.UTF_8), "Ünïcödé".getBytes(StandardCharsets.UTF_8),
        "x".getBytes(StandardCharsets.UTF_8), "the quick brown fox".getBytes(StandardCharsets.UTF_8)};

    private final ActionPlanEncoder encoder = new ActionPlanEncoder();
    private final CRC32C crc = new CRC32C();
    private final byte[] scratch = new byte[ActionPlanFlyweight.MAX_PLAN_BYTES];
    private final ActionPlanFlyweight view = new ActionPlanFlyweight();

    /**
     * Encodes a random valid plan with {@code planId} into {@code buffer} at 0, at most
     * {@code maxBytes} long. Returns its size.
     */
    int random(final SplittableRandom random, final BytesStore<?, ?> buffer, final long planId, final int maxBytes) {
        int actions = 1 + random.nextInt(12);
        while (true) {
            final int size = encode(random, buffer, planId, maxBytes, actions);
            if (size > 0) {
                return size;
            }
            actions = Math.max(1, actions / 2);
        }
    }

    private int encode(final SplittableRandom random, final BytesStore<?, ?> buffer, final long planId,
        final int maxBytes, final int actions) {
        final boolean hold = random.nextInt(10) == 0;
        encoder.wrap(buffer, 0, maxBytes).header(planId, random.nextLong() >>> 1, random.nextLong() >>> 1,
            random.nextInt(100), hold ? 1 + random.nextInt(1000) : 0, actions, hold ? ActionPlanFlyweight.KEEP_HELD : 0);
        for (int a = 0; a < actions; a++) {
            if (hold && a == actions - 1) { // HOLD last: the plan ends with the button held
                encoder.move(a, 7, 7).buttonDown(a, Button.MIDDLE).actionEnd(a);
                break;
            }
            switch (random.nextInt(7)) {
                case 0: { // CLICK with modifiers and repeats
                    final int button = 1 << random.nextInt(3);
                    final int mods = random.nextInt(Modifier.ALL + 1);
                    encoder.move(a, random.nextInt(1920 << 8), random.nextInt(1080 << 8));
                    if (mods != 0) {
                        encoder.modifiersDown(a, mods);
                    }
                    for (int r = 1 + random.nextInt(AgentAbi.MAX_REPEAT_COUNT); r > 0; r--) {
                        encoder.buttonDown(a, button).buttonUp(a, button);
                    }
                    if (mods != 0) {
                        encoder.modifiersUp(a, mods);
                    }
                    break;
                }
                case 1: // KEY_CHORD
                    encoder.modifiersDown(a, Modifier.CONTROL).keyDown(a, 0x04 + random.nextInt(26))
                        .keyUp(a, 0x04).modifiersUp(a, Modifier.CONTROL);
                    break;
                case 2: { // TEXT
                    encoder.move(a, 5, 5).buttonDown(a, Button.LEFT).buttonUp(a, Button.LEFT);
                    for (int w = 1 + random.nextInt(20); w > 0; w--) {
                        final byte[] word = WORDS[random.nextInt(WORDS.length)];
                        encoder.text(a, BytesStore.wrap(word), 0, word.length);
                    }
                    break;
                }
                case 3:
                    encoder.move(a, 1, 2).scroll(a, random.nextInt(2000) - 1000, 256);
                    break;
                case 4:
                    encoder.windowActivate(a, random.nextLong() >>> 1);
                    break;
                case 5:
                    encoder.windowCycle(a, random.nextBoolean()).releaseAll(a);
                    break;
                default: // DRAG_DROP
                    encoder.move(a, 10, 10).buttonDown(a, Button.LEFT).move(a, 500, 600).buttonUp(a, Button.LEFT);
                    break;
            }
            encoder.actionEnd(a);
        }
        return encoder.finish();
    }

    /**
     * The test helpers' answer to a plan: OK, every action and command done, the pointer at the
     * last MOVE, and physical_sequence = CRC-32C of the whole plan record as received.
     */
    void answer(final ActionPlanFlyweight plan, final PlanCompletionFlyweight out) {
        final BytesStore<?, ?> b = plan.bytes();
        final int size = (int) plan.totalSize();
        for (int i = 0; i < size; i++) {
            scratch[i] = b.readByte(plan.offset() + i);
        }
        crc.reset();
        crc.update(scratch, 0, size);
        int ends = 0;
        int x = 0;
        int y = 0;
        for (int i = 0; i < plan.commandCount(); i++) {
            final PlanCommandFlyweight c = plan.command(i);
            if (c.op() == PlanOp.ACTION_END) {
                ends++;
            } else if (c.op() == PlanOp.MOVE) {
                x = c.a();
                y = c.b();
            }
        }
        out.clear().planId(plan.planId()).result(ResultCode.OK).platformError(ResultCode.PLATFORM_OK)
            .completedActions(ends).failedActionIndex(AgentAbi.NO_FAILED_ACTION).commandsExecuted(plan.commandCount());
        out.physicalState().pointer(x, y).activeLeaseId(plan.keepHeld() ? plan.leaseId() : 0)
            .permissionEpoch(plan.permissionEpoch()).physicalSequence(crc.getValue());
    }

    /** The answer to an invalid record. */
    static void refuse(final long planId, final int verdict, final PlanCompletionFlyweight out) {
        out.clear().planId(planId == 0 ? 1 : planId).result(PlanValidator.resultFor(verdict))
            .platformError(ResultCode.platformErrorFor(ResultCode.INVALID_MESSAGE)).completedActions(0)
            .failedActionIndex(0).commandsExecuted(0);
    }

    /** The answer the helper must give to the plan in {@code buffer} at 0. */
    void expected(final BytesStore<?, ?> buffer, final PlanCompletionFlyweight out) {
        answer(view.wrap(buffer, 0), out);
    }
}
