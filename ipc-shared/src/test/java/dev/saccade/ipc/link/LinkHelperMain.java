package dev.saccade.ipc.link;

import dev.saccade.protocol.plan.ActionPlanFlyweight;
import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A test input helper in its own JVM: attaches to the link file and the lifeline with the nonce
 * in {@value SessionNonce#ENVIRONMENT_VARIABLE}, answers every plan with
 * {@link LinkTestPlans#answer}, and reports on stdout. Arguments: link file, lifeline socket,
 * owner pid (0: any), mode: {@code serve}, {@code paused} (drain nothing until "DRAIN" arrives on
 * stdin) or {@code lifeline-wrong-nonce} (attach to the file, then offer the lifeline another
 * nonce). Stdin: "DRAIN", "PAUSE", "PING" (answers "PONG ..."); end of stdin stops it.
 *
 * <p>Output: "ATTACHED pid=..", "REFUSED reason=..", "CORRUPT reason=..", "PONG ...",
 * "LOST reason=..", "STOPPED".
 */
public final class LinkHelperMain {
    private static volatile boolean paused;
    private static volatile boolean ping;
    private static volatile boolean stop;
    private static volatile boolean lost;

    private LinkHelperMain() {
    }

    public static void main(final String[] args) throws Exception {
        final Path file = Path.of(args[0]);
        final Path lifelinePath = Path.of(args[1]);
        final long ownerPid = Long.parseLong(args[2]);
        final String mode = args[3];
        final byte[] nonce = SessionNonce.fromHex(System.getenv(SessionNonce.ENVIRONMENT_VARIABLE));
        paused = mode.equals("paused");

        final HelperSide side;
        try {
            side = HelperSide.open(file, nonce, ownerPid);
        } catch (final LinkRefusedException e) {
            println("REFUSED reason=" + e.reason() + " file");
            return;
        }
        final HelperLifeline lifeline;
        try {
            final byte[] offered = nonce.clone();
            if (mode.equals("lifeline-wrong-nonce")) {
                offered[0] ^= 1;
            }
            lifeline = HelperLifeline.connect(lifelinePath, offered, side.ownerPid(), Duration.ofSeconds(20));
        } catch (final LinkRefusedException e) {
            println("REFUSED reason=" + e.reason() + " lifeline");
            side.close();
            return;
        }
        lifeline.watch((reason, atNs) -> lost = true);
        println("ATTACHED pid=" + ProcessHandle.current().pid() + " ownerPid=" + lifeline.ownerPid());
        startCommandReader();

        final LinkTestPlans plans = new LinkTestPlans();
        final PlanCompletionFlyweight completion =
            new PlanCompletionFlyweight().wrap(BytesStore.wrap(new byte[PlanCompletionFlyweight.LENGTH]), 0);
        final PlanHandler handler = new PlanHandler() {
            @Override
            public void onPlan(final ActionPlanFlyweight plan) {
                plans.answer(plan, completion);
                publish(side, completion);
            }

            @Override
            public void onInvalidPlan(final long planId, final int verdict) {
                println("INVALID plan=" + planId + " verdict=" + verdict);
                LinkTestPlans.refuse(planId, verdict, completion);
                publish(side, completion);
            }
        };
        boolean reportedCorrupt = false;
        long lastBeatNs = 0;
        while (!stop && !lost) {
            int work = 0;
            if (!paused) {
                final int n = side.pollPlans(handler, 16);
                if (n == OneToOneByteRing.CORRUPT) {
                    if (!reportedCorrupt) {
                        reportedCorrupt = true;
                        println("CORRUPT reason=" + side.planRingCorruption() + " "
                            + OneToOneByteRing.corruptionReason(side.planRingCorruption()).replace(' ', '_'));
                    }
                } else {
                    work += n;
                }
            }
            final long nowNs = System.nanoTime();
            if (nowNs - lastBeatNs > TimeUnit.MILLISECONDS.toNanos(1)) {
                side.beat(nowNs);
                lastBeatNs = nowNs;
            }
            if (ping) {
                ping = false;
                println("PONG invalid=" + side.invalidPlans() + " wraps=" + side.planRingWraps()
                    + " corruption=" + side.planRingCorruption());
            }
            if (work == 0) {
                LockSupport.parkNanos(20_000);
            }
        }
        println(lost ? "LOST reason=lifeline" : "STOPPED");
        lifeline.close();
        side.close();
    }

    private static void publish(final HelperSide side, final PlanCompletionFlyweight completion) {
        while (!side.tryPublishCompletion(completion)) {
            if (lost || stop) {
                return;
            }
            LockSupport.parkNanos(20_000);
        }
    }

    private static void startCommandReader() {
        final Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    switch (line.trim()) {
                        case "DRAIN": paused = false; break;
                        case "PAUSE": paused = true; break;
                        case "PING": ping = true; break;
                        default: break;
                    }
                }
            } catch (final IOException ignore) {
                // stdin gone: same as closed
            }
            stop = true;
        }, "commands");
        t.setDaemon(true);
        t.start();
    }

    static synchronized void println(final String line) {
        System.out.println(line);
        System.out.flush();
    }
}
