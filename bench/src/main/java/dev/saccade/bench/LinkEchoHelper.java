package dev.saccade.bench;

import dev.saccade.ipc.link.HelperLifeline;
import dev.saccade.ipc.link.HelperSide;
import dev.saccade.ipc.link.PlanHandler;
import dev.saccade.ipc.link.SessionNonce;
import dev.saccade.protocol.plan.ActionPlanFlyweight;
import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import java.nio.file.Path;
import java.time.Duration;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The helper side of {@link LinkRoundTripBench}, in its own JVM: attaches like a real helper
 * (link file and lifeline, nonce from the environment), then busy-spins on the plan ring and
 * answers each plan at once. The completion carries the helper's clock readings: when its handler
 * got the plan, after the ring read and the plan's validation ({@code physical_sequence}), and
 * when the answer started ({@code permission_epoch}).
 * Stops when the owner's lifeline closes. Arguments: link file, lifeline socket.
 */
final class LinkEchoHelper {
    private static volatile boolean lost;

    private LinkEchoHelper() {
    }

    public static void main(final String[] args) throws Exception {
        final byte[] nonce = SessionNonce.fromHex(System.getenv(SessionNonce.ENVIRONMENT_VARIABLE));
        try (HelperSide side = HelperSide.open(Path.of(args[0]), nonce, 0);
             HelperLifeline lifeline = HelperLifeline.connect(Path.of(args[1]), nonce, side.ownerPid(),
                 Duration.ofSeconds(30))) {
            lifeline.watch((reason, atNs) -> lost = true);
            final PlanCompletionFlyweight completion =
                new PlanCompletionFlyweight().wrap(BytesStore.wrap(new byte[PlanCompletionFlyweight.LENGTH]), 0);
            final PlanHandler echo = new PlanHandler() {
                @Override
                public void onPlan(final ActionPlanFlyweight plan) {
                    final long seenNs = System.nanoTime();
                    completion.planId(plan.planId()).commandsExecuted(plan.commandCount())
                        .failedActionIndex(0xFFFF_FFFFL);
                    completion.physicalState().physicalSequence(seenNs).permissionEpoch(System.nanoTime());
                    while (!side.tryPublishCompletion(completion)) {
                        Thread.onSpinWait();
                    }
                }

                @Override
                public void onInvalidPlan(final long planId, final int verdict) {
                    throw new IllegalStateException("invalid plan " + planId + ": " + verdict);
                }
            };
            System.out.println("ATTACHED pid=" + ProcessHandle.current().pid());
            System.out.flush();
            long polls = 0;
            while (!lost) {
                if (side.pollPlans(echo, 1) == 0 && (++polls & 0xFFFF) == 0) {
                    side.beat(System.nanoTime());
                }
            }
        }
    }
}
