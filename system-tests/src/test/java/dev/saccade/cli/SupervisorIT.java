package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.ipc.ListenerHandoff;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import dev.saccade.supervisor.ControlRequest;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * The supervisor's proofs with real processes: {@code bin/saccade supervisor run} of the built
 * distribution supervising real owners ({@code bin/saccade owner run}) on the test desktop, a
 * client loop connecting and observing throughout, the control socket driven as {@code saccade
 * supervisor ...} drives it, owners killed with SIGKILL. Owners run without accessibility and
 * without an input helper, so each start costs a JVM and the X reader only.
 */
@WithTestDesktop
class SupervisorIT {
    /**
     * In-place upgrades under load. Each is a JVM start (about a second on the 2-core CI box), so
     * CI runs 20; 100 run by hand with -Dsaccade.it.upgrades=100.
     */
    private static final int UPGRADES = Integer.getInteger("saccade.it.upgrades", 20);
    private static final int KILLS = Integer.getInteger("saccade.it.kills", 20);
    private static final String QUIET = "";

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void controlSocketAnswersAndStopReleasesEverything(final TestDesktop desktop) throws Exception {
        try (SupervisedSession s = SupervisedSession.start(desktop.display(), QUIET)) {
            final long first = s.awaitOwner(-1, 60_000);
            for (final String name : new String[] {RuntimeDirectory.SUPERVISOR_SOCKET_NAME, RuntimeDirectory.AGENT_SOCKET_NAME,
                ListenerHandoff.LINK_SOCKET_NAME}) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(s.runtime.resolve(name))), name);
            }
            final String status = s.request(ControlRequest.status());
            assertTrue(status.startsWith("{\"ok\":true,\"pid\":\"" + s.process.pid() + "\""), status);
            for (final String field : new String[] {"\"uptime_ms\":\"", "\"name\":\"owner\"", "\"version\":\"", "\"restarts\":\"0\"",
                "\"last_exit\":\"", "\"generation\":\""}) {
                assertTrue(status.contains(field), field + " in " + status);
            }
            // Bad input: a typed answer each, and the supervisor keeps serving.
            assertTrue(raw(s, "not json\n").contains("\"ok\":false"));
            assertTrue(raw(s, "{\"command\":\"reboot\"}\n").contains("unknown command"));
            assertTrue(raw(s, "{\"command\":\"upgrade\",\"to\":\"/nonexistent\"}\n").contains("not a Saccade distribution"));
            assertTrue(raw(s, "x".repeat(ControlRequest.MAX_LINE_BYTES + 10) + "\n").contains("\"ok\":false"));
            assertTrue(raw(s, "{\"command\":\"restart\",\"target\":\"helper\"}\n").contains("without an input helper"));

            final String restarted = s.request(ControlRequest.restart("owner"));
            assertTrue(restarted.startsWith("{\"ok\":true"), restarted + s.tail() + s.ownerLog());
            final long second = SupervisedSession.pidOf(restarted);
            assertNotEquals(first, second);
            assertTrue(ProcessHandle.of(first).map(p -> p.onExit().completeOnTimeout(p, 10, TimeUnit.SECONDS).join())
                .map(p -> !p.isAlive()).orElse(true), "the old owner exits after its handoff");
            assertTrue(s.request(ControlRequest.status()).contains("\"restarts\":\"1\""));

            // Through the CLI, as a user would.
            final CliRun cliStatus = CliRun.run("supervisor", "status", "--runtime-dir", s.runtime.toString());
            assertEquals(0, cliStatus.exitCode, cliStatus.toString());
            assertTrue(cliStatus.out.contains("\"pid\":\"" + second + "\""), cliStatus.toString());

            // status answers while a restart is under way (it does not wait behind the restart's reply)
            final int mark = s.lineCount();
            final CompletableFuture<Long> restartAnswered = CompletableFuture.supplyAsync(() -> {
                try {
                    assertTrue(s.request(ControlRequest.restart("owner")).startsWith("{\"ok\":true"));
                } catch (final IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return System.nanoTime();
            });
            s.awaitLine(mark, line -> line.contains("event=owner_spawn"), 60_000);
            final String during = s.request(ControlRequest.status());
            final long statusAnswered = System.nanoTime();
            assertTrue(during.startsWith("{\"ok\":true"), during);
            assertTrue(statusAnswered < restartAnswered.get(120, TimeUnit.SECONDS),
                "status waited for the restart to finish");

            final CliRun stop = CliRun.run("supervisor", "stop", "--runtime-dir", s.runtime.toString());
            assertEquals(0, stop.exitCode, stop.toString());
            assertTrue(s.process.waitFor(30, TimeUnit.SECONDS), "the supervisor exits on stop");
            assertEquals(0, s.process.exitValue());
            assertFalse(ProcessHandle.of(second).map(ProcessHandle::isAlive).orElse(false), "the owner was stopped");
            assertFalse(Files.exists(s.endpoint(), LinkOption.NOFOLLOW_LINKS), "endpoint unlinked at stop");
            assertFalse(Files.exists(s.runtime.resolve(RuntimeDirectory.SUPERVISOR_SOCKET_NAME), LinkOption.NOFOLLOW_LINKS));
        }
    }

    private static String raw(final SupervisedSession s, final String line) throws Exception {
        try (AFUNIXSocket socket = AFUNIXSocket.connectTo(
            AFUNIXSocketAddress.of(s.runtime.resolve(RuntimeDirectory.SUPERVISOR_SOCKET_NAME)))) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(line.getBytes(StandardCharsets.UTF_8));
            final InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void upgradesUnderLoadRefuseNothingFailNothingAndGenerationsOnlyGrow(final TestDesktop desktop) throws Exception {
        final Path other = copyOfDistribution();
        try (SupervisedSession s = SupervisedSession.start(desktop.display(), QUIET);
             ObserveLoop loop = new ObserveLoop(s.endpoint())) {
            s.awaitOwner(-1, 60_000);
            loop.start().awaitAnswers(10, Duration.ofSeconds(30));
            final List<Double> upgradeMs = new ArrayList<>();
            double maxWaitMs = 0;
            for (int i = 0; i < UPGRADES; i++) {
                final long seenBefore = loop.lastGeneration();
                loop.resetMaxWait();
                final long beginNs = System.nanoTime();
                final String reply = s.request(ControlRequest.upgrade(i % 2 == 0 ? other : SupervisedSession.DIST));
                upgradeMs.add((System.nanoTime() - beginNs) / 1e6);
                assertTrue(reply.startsWith("{\"ok\":true"), () -> reply + " " + s.tail() + ownerLogOf(s));
                assertTrue(SupervisedSession.generationOf(reply) > seenBefore,
                    "upgrade " + i + ": new owner's generation " + reply + " not above " + seenBefore);
                loop.awaitAnswers(3, Duration.ofSeconds(30));
                assertTrue(loop.lastGeneration() > seenBefore, "clients see the new owner's generations");
                maxWaitMs = Math.max(maxWaitMs, loop.maxWaitMs());
            }
            loop.stop();
            final String numbers = String.format("upgrades=%d answered=%d refused=%d failed=%d unanswered=%d backwards=%d "
                    + "generation_changes=%d max_client_wait_ms=%.1f upgrade_ms_median=%.0f upgrade_ms_max=%.0f%n", UPGRADES,
                loop.answered.get(), loop.refused.get(), loop.failedAttempts.get(), loop.unanswered.get(), loop.backwards.get(),
                loop.changes.get(), maxWaitMs, median(upgradeMs), upgradeMs.stream().mapToDouble(d -> d).max().orElse(0));
            System.out.print(numbers);
            record("supervisor-upgrades.txt", numbers);
            assertEquals(0, loop.refused.get(), loop.toString());
            assertEquals(0, loop.failedAttempts.get(), loop.toString());
            assertEquals(0, loop.unanswered.get(), loop.toString());
            assertEquals(0, loop.backwards.get(), loop.toString());
            assertTrue(s.request(ControlRequest.status()).contains("\"restarts\":\"" + UPGRADES + "\""));
        } finally {
            deleteTree(other.getParent());
        }
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void killingTheOwnerUnderLoadRefusesNoConnectAndEveryRequestIsAnswered(final TestDesktop desktop) throws Exception {
        // Healthy after 500 ms, so each kill restarts after the first 250 ms step, not a growing one.
        try (SupervisedSession s = SupervisedSession.start(desktop.display(), "-Dsaccade.supervisor.healthy.reset.ms=500");
             ObserveLoop loop = new ObserveLoop(s.endpoint())) {
            long pid = s.awaitOwner(-1, 60_000);
            loop.start().awaitAnswers(10, Duration.ofSeconds(30));
            double maxWaitMs = 0;
            for (int i = 0; i < KILLS; i++) {
                final long seenBefore = loop.lastGeneration();
                loop.resetMaxWait();
                final ProcessHandle owner = ProcessHandle.of(pid).orElseThrow();
                owner.destroyForcibly(); // SIGKILL
                owner.onExit().get(10, TimeUnit.SECONDS);
                pid = s.awaitOwner(pid, 60_000);
                loop.awaitAnswers(3, Duration.ofSeconds(30));
                assertTrue(loop.lastGeneration() > seenBefore, "kill " + i + ": the new owner numbers above the dead one");
                maxWaitMs = Math.max(maxWaitMs, loop.maxWaitMs());
            }
            loop.stop();
            final String numbers = String.format("kills=%d answered=%d refused=%d failed_attempts=%d unanswered=%d backwards=%d "
                    + "max_client_wait_ms=%.1f%n", KILLS, loop.answered.get(), loop.refused.get(), loop.failedAttempts.get(),
                loop.unanswered.get(), loop.backwards.get(), maxWaitMs);
            System.out.print(numbers);
            record("supervisor-kills.txt", numbers);
            assertEquals(0, loop.refused.get(), "connects wait in the backlog: " + loop);
            assertEquals(0, loop.unanswered.get(), loop.toString());
            assertEquals(0, loop.backwards.get(), loop.toString());
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void anOwnerThatExitsAtOnceIsRestartedOnTheBackoffScheduleByAnIdleSupervisor(final TestDesktop desktop) throws Exception {
        try (SupervisedSession s = SupervisedSession.start(desktop.display(), QUIET, "--owner-arg=--grid=bad")) {
            final long[] expected = {250, 500, 1_000, 2_000, 4_000, 8_000, 8_000};
            final List<Double> measured = new ArrayList<>();
            final List<Double> forkMs = new ArrayList<>();
            int at = 0;
            long cpuBeginTicks = 0;
            long cpuBeginNs = 0;
            for (int i = 0; i < expected.length; i++) {
                final int exit = s.awaitLine(at, l -> l.contains("event=owner_exit"), 30_000);
                assertTrue(s.lines.get(exit).text.contains("restart_in_ms=" + expected[i]), s.lines.get(exit).text);
                if (i == expected.length - 2) {
                    cpuBeginTicks = cpuTicks(s.process.pid());
                    cpuBeginNs = System.nanoTime();
                }
                final int starting = s.awaitLine(exit, l -> l.contains("event=owner_starting"), 30_000);
                final int spawn = s.awaitLine(starting, l -> l.contains("event=owner_spawn"), 30_000);
                measured.add((s.lines.get(starting).atNs - s.lines.get(exit).atNs) / 1e6);
                forkMs.add((s.lines.get(spawn).atNs - s.lines.get(starting).atNs) / 1e6);
                at = spawn;
            }
            final double cpuPercent = 100.0 * (cpuTicks(s.process.pid()) - cpuBeginTicks) / 100.0
                / ((System.nanoTime() - cpuBeginNs) / 1e9);
            final String numbers = "crash-loop restart intervals ms " + measured + " expected " + java.util.Arrays.toString(expected)
                + " fork ms " + forkMs + String.format(" supervisor_cpu_percent_over_last_16s=%.2f%n", cpuPercent);
            System.out.print(numbers);
            record("supervisor-crash-loop.txt", numbers);
            for (int i = 0; i < expected.length; i++) {
                assertTrue(measured.get(i) >= expected[i] - 5 && measured.get(i) <= expected[i] + 250,
                    "interval " + i + ": " + measured.get(i) + " ms, expected " + expected[i]);
            }
            assertTrue(cpuPercent < 2.0, "supervisor CPU " + cpuPercent + "% while waiting out the backoff");
            assertTrue(s.request(ControlRequest.status()).contains("\"last_exit\":\"the new owner"), "last exit reported");
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aKilledSupervisorTakesItsOwnerAlongAndTheNextOneServesTheSamePaths(final TestDesktop desktop) throws Exception {
        final Path runtime;
        try (SupervisedSession first = SupervisedSession.start(desktop.display(), QUIET)) {
            final long owner = first.awaitOwner(-1, 60_000);
            first.process.destroyForcibly(); // SIGKILL: no shutdown hook, sockets left behind
            assertTrue(first.process.waitFor(10, TimeUnit.SECONDS));
            final ProcessHandle orphan = ProcessHandle.of(owner).orElse(null);
            assertTrue(orphan == null || orphan.onExit().completeOnTimeout(orphan, 10, TimeUnit.SECONDS).join() != null
                && !orphan.isAlive(), "the owner leaves when its supervisor's link ends");
            runtime = first.runtime;
            // A second supervisor on the same runtime directory (what systemd's Restart= does).
            try (SupervisedSession second = SupervisedSession.restartIn(first, desktop.display())) {
                second.awaitOwner(-1, 60_000);
                try (ObserveLoop loop = new ObserveLoop(second.endpoint())) {
                    loop.start().awaitAnswers(5, Duration.ofSeconds(30));
                }
            }
        }
        assertFalse(Files.exists(runtime));
    }

    /**
     * {@code saccade up}'s setup: the supervisor's input helper, which outlives owners. A kill -9
     * of the owner releases the button the helper held (the X server says so), the helper
     * attaches to the replacement, which holds again; planned restarts refuse nothing.
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void withTheSupervisorsHelperKillsReleaseInputAndItAttachesToEachNewOwner(final TestDesktop desktop) throws Exception {
        try (SupervisedSession s = SupervisedSession.startWithHelpers(desktop.display(), "SUPERVISED")) {
            final Path helperLog = s.runtime.resolve("saccade-helper.log");
            killsReleaseAndRestartsRefuseNothing(s, desktop, pid -> logHas(helperLog, "event=helper_attached", "owner=" + pid));
            assertEquals(1, s.process.descendants().filter(p -> p.info().commandLine().orElse("").contains("InputHelperMain"))
                .count(), "one helper throughout");
        }
    }

    /**
     * Each owner with its own helper (the OWNER mode): kills release input the same way; a
     * planned restart stops the old owner and its helper first, and still refuses no connect.
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void withEachOwnersOwnHelperKillsReleaseInputAndRestartsRefuseNothing(final TestDesktop desktop) throws Exception {
        try (SupervisedSession s = SupervisedSession.startWithHelpers(desktop.display(), "OWNER")) {
            final Path helperLog = s.runtime.resolve("saccade-input-helper.log");
            killsReleaseAndRestartsRefuseNothing(s, desktop, pid -> logHas(helperLog, "event=helper_attached", "owner=" + pid));
        }
    }

    /** Whether the log holds a line with all of {@code parts}. */
    private static boolean logHas(final Path log, final String... parts) throws java.io.IOException {
        if (!Files.exists(log)) {
            return false;
        }
        for (final String line : Files.readAllLines(log)) {
            boolean all = true;
            for (final String part : parts) {
                all &= line.contains(part);
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    /** Tells whether the helper serving owner {@code pid} has attached. */
    interface Attached {
        boolean test(long pid) throws Exception;
    }

    private static void killsReleaseAndRestartsRefuseNothing(final SupervisedSession s, final TestDesktop desktop,
        final Attached attached) throws Exception {
        try (XPointerProbe probe = new XPointerProbe(desktop.display())) {
            long pid = s.awaitOwner(-1, 60_000);
            for (int i = 0; i < 3; i++) {
                final long owner = pid;
                Await.probe(() -> attached.test(owner), Boolean::booleanValue, Duration.ofSeconds(60), Duration.ofMillis(5),
                    no -> "a helper attached to owner " + owner + ": " + ownerLogOf(s));
                final AgentClient client = AgentClient.connect(s.endpoint(), Duration.ofSeconds(30));
                client.readTimeout(Duration.ofSeconds(30));
                client.hello(1, Capability.POLICY);
                final long cell = HeldInputReleaseDesktopTest.gridCell(client);
                // The helper logs its attach once the owner's WELCOME is out; the owner marks it
                // attached a moment later on its launcher thread: until then a batch answers
                // EXECUTOR_LOST (D5), which on a loaded machine the first HOLD can meet. Retry that only.
                final ActionCompletionFlyweight held = HeldInputReleaseDesktopTest.batchOnceAdopted(client,
                    a -> a.kind(ActionKind.HOLD).targetId(cell).buttonBits(Button.LEFT), Capability.POINTER,
                    Duration.ofSeconds(10));
                assertEquals(ResultCode.OK, held.result(), "round " + i + ": " + ResultCode.name(held.result()) + s.ownerLog());
                assertTrue(probe.leftHeld(), "the X server holds the button");
                final long killedAt = System.nanoTime();
                ProcessHandle.of(pid).orElseThrow().destroyForcibly();
                final long released = probe.awaitLeftReleased(killedAt + TimeUnit.SECONDS.toNanos(5));
                assertTrue(released > 0, "round " + i + ": still held 5 s after the owner was killed");
                System.out.printf("supervised owner SIGKILL %d -> button released in %.1f ms%n", i, (released - killedAt) / 1e6);
                client.close();
                pid = s.awaitOwner(pid, 60_000);
            }
            try (ObserveLoop loop = new ObserveLoop(s.endpoint())) {
                loop.start().awaitAnswers(5, Duration.ofSeconds(30));
                for (int i = 0; i < 2; i++) {
                    final String reply = s.request(ControlRequest.restart("owner"));
                    assertTrue(reply.startsWith("{\"ok\":true"), reply + s.tail() + s.ownerLog());
                    loop.awaitAnswers(5, Duration.ofSeconds(30));
                }
                loop.stop();
                assertEquals(0, loop.refused.get(), loop.toString());
                assertEquals(0, loop.unanswered.get(), loop.toString());
                assertEquals(0, loop.backwards.get(), loop.toString());
                System.out.println("planned restarts with a helper: " + loop);
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anOwnerThatStopsAnsweringIsKilledAndReplaced(final TestDesktop desktop) throws Exception {
        try (SupervisedSession s = SupervisedSession.start(desktop.display(),
            "-Dsaccade.supervisor.ping.interval.ms=200 -Dsaccade.supervisor.unresponsive.ms=2000")) {
            final long stopped = s.awaitOwner(-1, 60_000);
            final Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(stopped)).start();
            assertTrue(stop.waitFor(5, TimeUnit.SECONDS) && stop.exitValue() == 0);
            final long stoppedAtNs = System.nanoTime();
            final int line = s.awaitLine(0, l -> l.contains("event=owner_unresponsive pid=" + stopped), 30_000);
            final double silentMs = (s.lines.get(line).atNs - stoppedAtNs) / 1e6;
            System.out.printf("SIGSTOPped owner declared unresponsive after %.0f ms (threshold 2,000)%n", silentMs);
            assertTrue(silentMs >= 1_500, "declared dead before its silence could exceed the threshold: " + silentMs);
            final long replacement = s.awaitOwner(stopped, 60_000);
            assertNotEquals(stopped, replacement);
            assertFalse(ProcessHandle.of(stopped).map(ProcessHandle::isAlive).orElse(false), "the hung owner was killed");
        }
    }

    /**
     * The handoff-gap benchmark, both ways in the same run on the same desktop: the longest time
     * a client loop waits for an answer across a planned owner change, (a) under the supervisor
     * (listener passed with SCM_RIGHTS; connects queue in the backlog) and (b) by the seed's
     * fallback (a lone replacement retries the endpoint every 50 ms while the old owner holds it,
     * the old one exits and unlinks, the new one binds; clients see the path missing or refused
     * and retry). Prints per-handoff maxima and the ratio; asserts only what the design promises:
     * no refused connect with descriptor passing.
     */
    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void handoffGapWithDescriptorPassingVersusTheFiftyMillisecondFallback(final TestDesktop desktop) throws Exception {
        final int rounds = Integer.getInteger("saccade.it.handoffs", 5);
        final List<Double> passing = new ArrayList<>();
        long passingRefused;
        try (SupervisedSession s = SupervisedSession.start(desktop.display(), QUIET);
             ObserveLoop loop = new ObserveLoop(s.endpoint())) {
            s.awaitOwner(-1, 60_000);
            loop.start().awaitAnswers(20, Duration.ofSeconds(30));
            for (int i = 0; i < rounds; i++) {
                loop.resetMaxWait();
                final String reply = s.request(ControlRequest.restart("owner"));
                assertTrue(reply.startsWith("{\"ok\":true"), reply);
                loop.awaitAnswers(20, Duration.ofSeconds(30));
                passing.add(loop.maxWaitMs());
            }
            passingRefused = loop.refused.get();
        }
        final List<Double> fallback = new ArrayList<>();
        long fallbackRefused;
        final Path parent = Files.createTempDirectory("saccade-fallback",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path runtime = parent.resolve("saccade");
        Process current = null;
        try (ObserveLoop loop = new ObserveLoop(runtime.resolve(RuntimeDirectory.AGENT_SOCKET_NAME))) {
            current = loneOwner(desktop, runtime, parent.resolve("owner-0.log"));
            awaitFile(runtime.resolve(RuntimeDirectory.AGENT_SOCKET_NAME), current);
            loop.start().awaitAnswers(20, Duration.ofSeconds(30));
            for (int i = 0; i < rounds; i++) {
                final Path log = parent.resolve("owner-" + (i + 1) + ".log");
                final Process next = loneOwner(desktop, runtime, log);
                // Its sources are up: it is about to bind, retrying every 50 ms while we hold the path.
                ProcessLog.awaitContains(next, log, log, Duration.ofSeconds(60), "x11-reader start");
                loop.resetMaxWait();
                current.destroy(); // SIGTERM: closes, unlinks its own socket file; the replacement binds
                assertTrue(current.waitFor(30, TimeUnit.SECONDS));
                current = next;
                loop.awaitAnswers(20, Duration.ofSeconds(30));
                fallback.add(loop.maxWaitMs());
            }
            fallbackRefused = loop.refused.get();
        } finally {
            if (current != null) {
                current.destroy();
                current.waitFor(30, TimeUnit.SECONDS);
            }
            deleteTree(parent);
        }
        final double passingMax = passing.stream().mapToDouble(d -> d).max().orElse(0);
        final double fallbackMax = fallback.stream().mapToDouble(d -> d).max().orElse(0);
        final String numbers = String.format("handoff gap, longest client wait per handoff (ms): fd passing %s (refused %d); "
                + "50 ms fallback %s (refused-then-retried connects %d); max %.1f vs %.1f, median %.1f vs %.1f, "
                + "fallback/passing ratio of maxima %.2f%n", passing, passingRefused, fallback, fallbackRefused, passingMax,
            fallbackMax, median(passing), median(fallback), fallbackMax / passingMax);
        System.out.print(numbers);
        record("supervisor-handoff-gap.txt", numbers);
        assertEquals(0, passingRefused, "descriptor passing never refuses a connect");
    }

    private static Process loneOwner(final TestDesktop desktop, final Path runtime, final Path log) throws Exception {
        final ProcessBuilder builder = new ProcessBuilder(SupervisedSession.DIST.resolve("bin/saccade").toString(), "owner",
            "run", "--display", desktop.display(), "--runtime-dir", runtime.toString(), "--input-helper", "off")
            .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("SACCADE_JAVA_OPTS",
            "-Dsaccade.owner.accessibility=false -Dsaccade.owner.busy.wait.ms=60000");
        return builder.start();
    }

    private static void awaitFile(final Path path, final Process owner) {
        Await.until(() -> Files.exists(path, LinkOption.NOFOLLOW_LINKS) || !owner.isAlive(), Duration.ofSeconds(60),
            Duration.ofMillis(2), () -> "the endpoint " + path);
        assertTrue(Files.exists(path, LinkOption.NOFOLLOW_LINKS), "no endpoint " + path + ": the owner exited");
    }

    /** utime + stime of a process, in clock ticks (USER_HZ, 100 on Linux). */
    private static long cpuTicks(final long pid) throws Exception {
        final String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of proc(5)
    }

    static Path copyOfDistribution() throws Exception {
        final Path parent = Files.createTempDirectory("saccade-dist-copy");
        final Path copy = parent.resolve("saccade");
        final Process cp = new ProcessBuilder("cp", "-a", SupervisedSession.DIST.toString(), copy.toString()).inheritIO().start();
        assertTrue(cp.waitFor(60, TimeUnit.SECONDS) && cp.exitValue() == 0, "cp -a of the distribution");
        return copy;
    }

    static void deleteTree(final Path root) throws Exception {
        try (var files = Files.walk(root)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static double median(final List<Double> values) {
        final List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
    }

    static void record(final String name, final String numbers) throws Exception {
        Files.writeString(SupervisedSession.DIST.resolveSibling(name), numbers, StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private static String ownerLogOf(final SupervisedSession s) {
        try {
            return s.ownerLog();
        } catch (final java.io.IOException e) {
            return e.toString();
        }
    }
}
