package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An isolated crash, with real processes: under the supervisor's default settings an owner that
 * has served for a while and is killed with SIGKILL is replaced in about a second, every time;
 * the growing backoff is only for owners that die soon after they start (SupervisorIT proves
 * that schedule). A client loop observes throughout; its longest wait around each kill is the
 * recovery time an agent sees.
 */
@WithTestDesktop
class SupervisorIsolatedCrashIT {
    private static final int KILLS = Integer.getInteger("saccade.it.isolated.kills", 6);
    /** Longer than the default healthy run (5 s): each kill is an isolated crash. */
    private static final long SERVE_NS = TimeUnit.MILLISECONDS.toNanos(5_500);

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void everyIsolatedOwnerCrashRecoversInAboutASecond(final TestDesktop desktop) throws Exception {
        final List<Double> recoveries = new ArrayList<>();
        final List<String> delays = new ArrayList<>();
        try (SupervisedSession s = SupervisedSession.start(desktop.display(), "");
             ObserveLoop loop = new ObserveLoop(s.endpoint())) {
            long pid = s.awaitOwner(-1, 60_000);
            int at = 0;
            loop.start().awaitAnswers(3, Duration.ofSeconds(30));
            for (int i = 0; i < KILLS; i++) {
                final long servingSince = System.nanoTime();
                while (System.nanoTime() - servingSince < SERVE_NS) {
                    loop.awaitAnswers(1, Duration.ofSeconds(30)); // the owner serves all along
                }
                loop.resetMaxWait();
                final ProcessHandle owner = ProcessHandle.of(pid).orElseThrow();
                owner.destroyForcibly(); // SIGKILL
                owner.onExit().get(10, TimeUnit.SECONDS);
                at = s.awaitLine(at, l -> l.contains("event=owner_exit"), 30_000) + 1;
                final String exit = s.lines.get(at - 1).text;
                delays.add(exit.replaceAll(".*restart_in_ms=(\\d+).*", "$1"));
                pid = s.awaitOwner(pid, 60_000);
                loop.awaitAnswers(3, Duration.ofSeconds(30));
                recoveries.add(loop.maxWaitMs());
            }
            loop.stop();
            final String numbers = "isolated owner SIGKILL: restart_in_ms " + delays + ", longest client wait per kill ms "
                + recoveries + "\n";
            System.out.print(numbers);
            SupervisorIT.record("supervisor-isolated-crash.txt", numbers);
            assertEquals(0, loop.refused.get(), loop.toString());
            assertEquals(0, loop.unanswered.get(), loop.toString());
            // the supervisor's own decision: the first step every time (a crash loop would double it: 250, 500, 1000…)
            assertEquals(java.util.Collections.nCopies(KILLS, "250"), delays, numbers);
            for (int i = 0; i < recoveries.size(); i++) {
                // 250 ms + an owner's start; the start alone is a JVM, seconds on a loaded 2-core box
                assertTrue(recoveries.get(i) < 8_000, "kill " + i + " took " + recoveries.get(i) + " ms: " + numbers);
            }
        }
    }
}
