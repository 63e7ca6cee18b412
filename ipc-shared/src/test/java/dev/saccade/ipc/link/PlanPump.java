package dev.saccade.ipc.link;

import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import dev.saccade.testsupport.Await;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Drives an {@link OwnerSide} like an owner thread: publishes random valid plans (ids 1, 2, ...)
 * as fast as the plan ring takes them, drains completions meanwhile, and checks that every
 * completion arrives in order and equals, byte for byte, the answer {@link LinkTestPlans#answer}
 * computes from the plan as sent: proof that each plan crossed intact.
 */
final class PlanPump {
    private final OwnerSide owner;
    private final SplittableRandom random;
    private final int maxPlanBytes;
    private final LinkTestPlans plans = new LinkTestPlans();
    private final BytesStore<?, byte[]> buffer;
    private final PlanCompletionFlyweight expected =
        new PlanCompletionFlyweight().wrap(BytesStore.wrap(new byte[PlanCompletionFlyweight.LENGTH]), 0);
    private BytesStore<?, byte[]> expectedStore;
    private int received;
    private long refusals;
    private String failure;
    private final CompletionHandler check = new CompletionHandler() {
        @Override
        public void onCompletion(final PlanCompletionFlyweight completion) {
            final long index = completion.planId() - 1;
            if (index != received) {
                fail("completion of plan " + completion.planId() + " arrived as number " + (received + 1));
            }
            for (int i = 0; i < PlanCompletionFlyweight.LENGTH && failure == null; i++) {
                if (completion.bytes().readByte(completion.offset() + i)
                    != expectedStore.readByte(index * PlanCompletionFlyweight.LENGTH + i)) {
                    fail("completion of plan " + completion.planId() + " differs at byte " + i
                        + ": the plan did not arrive intact");
                }
            }
            received++;
        }

        @Override
        public void onInvalidCompletion(final long planId, final int verdict) {
            fail("invalid completion for plan " + planId + ", verdict " + verdict);
        }
    };

    PlanPump(final OwnerSide owner, final long seed, final int maxPlanBytes) {
        this.owner = owner;
        this.random = new SplittableRandom(seed);
        this.maxPlanBytes = Math.min(maxPlanBytes, owner.maxPlanLength());
        this.buffer = BytesStore.wrap(new byte[this.maxPlanBytes]);
    }

    /**
     * Sends {@code count} plans and waits for all completions, up to {@code timeoutMs} or until
     * {@code abort} holds. Returns null on success, else what went wrong.
     */
    String run(final int count, final long timeoutMs, final BooleanSupplier abort) {
        expectedStore = BytesStore.wrap(new byte[PlanCompletionFlyweight.LENGTH * count]);
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (int sent = 0; sent < count && failure == null; sent++) {
            final int size = plans.random(random, buffer, sent + 1, maxPlanBytes);
            plans.expected(buffer, expected);
            expectedStore.write((long) sent * PlanCompletionFlyweight.LENGTH, expected.bytes(), 0,
                PlanCompletionFlyweight.LENGTH);
            while (!owner.tryPublishPlan(buffer, 0, size)) {
                refusals++;
                if (drain() == 0) {
                    if (abort.getAsBoolean() || !Await.before(deadlineNs)) {
                        return "gave up publishing plan " + (sent + 1) + " (ring corruption "
                            + owner.planRingCorruption() + ")";
                    }
                    LockSupport.parkNanos(10_000);
                }
            }
            drain();
        }
        while (received < count && failure == null) {
            if (drain() == 0) {
                if (abort.getAsBoolean() || !Await.before(deadlineNs)) {
                    return "received " + received + " of " + count + " completions";
                }
                LockSupport.parkNanos(10_000);
            }
        }
        return failure;
    }

    int received() {
        return received;
    }

    /** How often the plan ring was full when a plan was offered. */
    long refusals() {
        return refusals;
    }

    private int drain() {
        final int n = owner.pollCompletions(check, 64);
        if (n < 0) {
            fail("completion ring corrupt: " + owner.completionRingCorruption());
            return 0;
        }
        return n;
    }

    private void fail(final String what) {
        if (failure == null) {
            failure = what;
        }
    }
}
