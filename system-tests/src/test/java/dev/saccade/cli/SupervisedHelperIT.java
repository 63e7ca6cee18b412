package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.ipc.ChildJvm;
import dev.saccade.ipc.link.SessionNonce;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import dev.saccade.supervisor.SupervisorContext;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The helper the supervisor starts outlives owners (docs/architecture.md, "Restart, upgrade and the
 * endpoint"): this test plays the supervisor with real processes. It starts
 * {@code InputHelperMain --serve} on the helper's minimal classpath and owners with
 * {@code owner run --input-helper external}, shares one session nonce with them through the
 * environment, and announces each owner on the helper's standard input. An owner killed with
 * SIGKILL while the helper holds a button gets it released, and the same helper then serves the
 * next owner; a helper killed while its owner holds a button gets it released by the owner, and
 * the next helper attaches to the same owner; the end of the helper's standard input (the
 * supervisor gone) ends the helper.
 */
@WithTestDesktop
class SupervisedHelperIT {
    private static final Path DIST = Path.of(System.getProperty("saccade.dist.dir"));
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(60);

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void theSupervisorsHelperOutlivesOwnersAndOwnersOutliveHelpers(final TestDesktop desktop) throws Exception {
        final Path runtime = Files.createTempDirectory("saccade-supervised",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final String nonce = SessionNonce.toHex(SessionNonce.generate());
        final List<Process> started = new ArrayList<>();
        try (XPointerProbe probe = new XPointerProbe(desktop.display())) {
            Process helper = startHelper(desktop, runtime, nonce, "helper-1.log", started);

            // an announced owner that is already gone: the helper gives it up and waits, without spinning
            final Process gone = new ProcessBuilder("true").start();
            assertTrue(gone.waitFor(10, TimeUnit.SECONDS));
            announce(helper, gone);
            awaitLog(runtime.resolve("helper-1.log"), "event=helper_link_abandoned", "owner=" + gone.pid());
            final long cpuBefore = cpuMs(helper);
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)); // a window to measure the helper's CPU in
            final long cpuMs = cpuMs(helper) - cpuBefore;
            assertTrue(cpuMs < 300, "the waiting helper used " + cpuMs + " ms of CPU in 1 s");

            // owner A: the helper attaches once announced, and holds a button for A's client
            final Process ownerA = startOwner(desktop, runtime, nonce, "owner-a.log", started);
            announce(helper, ownerA);
            awaitLog(runtime.resolve("helper-1.log"), "event=helper_attached", "owner=" + ownerA.pid());
            try (AgentClient client = connect(runtime)) {
                hold(client);
                assertTrue(probe.leftHeld(), "the X server holds the button for owner A");
                final long killedAt = System.nanoTime();
                ownerA.destroyForcibly(); // SIGKILL
                final long released = probe.awaitLeftReleased(killedAt + TimeUnit.SECONDS.toNanos(5));
                assertTrue(released > 0, "the helper releases the button when owner A dies");
                System.out.printf("supervised: owner SIGKILL -> button released by the helper in %.1f ms%n",
                    (released - killedAt) / 1e6);
            }
            awaitLog(runtime.resolve("helper-1.log"), "reason=owner_gone", "owner=" + ownerA.pid());
            assertTrue(helper.isAlive(), "the supervisor's helper outlives its owner");

            // owner B: the same helper serves it
            final Process ownerB = startOwner(desktop, runtime, nonce, "owner-b.log", started);
            announce(helper, ownerB);
            awaitLog(runtime.resolve("helper-1.log"), "event=helper_attached", "owner=" + ownerB.pid());
            try (AgentClient client = connect(runtime)) {
                hold(client);
                assertTrue(probe.leftHeld(), "the X server holds the button for owner B");

                // the helper dies holding it: owner B releases over its own X connection
                final long killedAt = System.nanoTime();
                helper.destroyForcibly();
                final long released = probe.awaitLeftReleased(killedAt + TimeUnit.SECONDS.toNanos(5));
                assertTrue(released > 0, "owner B releases what the killed helper held");
                System.out.printf("supervised: helper SIGKILL -> button released by the owner in %.1f ms%n",
                    (released - killedAt) / 1e6);
                awaitLog(runtime.resolve("owner-b.log"), "event=helper_link_open", "-" + ownerB.pid());

                // the supervisor's next helper attaches to the same owner, and input flows again
                helper = startHelper(desktop, runtime, nonce, "helper-2.log", started);
                announce(helper, ownerB);
                awaitLog(runtime.resolve("helper-2.log"), "event=helper_attached", "owner=" + ownerB.pid());
                final long cell = HeldInputReleaseDesktopTest.gridCell(client);
                // until owner B has adopted the new link a batch answers EXECUTOR_LOST
                final ActionCompletionFlyweight done = HeldInputReleaseDesktopTest.batchOnceAdopted(client,
                    a -> a.kind(ActionKind.HOLD).targetId(cell).buttonBits(Button.LEFT), Capability.POINTER,
                    Duration.ofNanos(WAIT_NS));
                assertEquals(ResultCode.OK, done.result(), ResultCode.name(done.result()));
                assertTrue(probe.leftHeld(), "the second helper holds the button for owner B");
            }
            // the client left: its hold is released
            assertTrue(probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)) > 0,
                "a departed client's hold is released");

            // the supervisor goes away: the helper's standard input ends, and so does it
            helper.getOutputStream().close();
            assertTrue(helper.waitFor(10, TimeUnit.SECONDS), "the helper exits when its supervisor is gone");
            assertEquals(0, helper.exitValue(), Files.readString(runtime.resolve("helper-2.log"))
                + Files.readString(runtime.resolve("owner-b.log")));
            awaitLog(runtime.resolve("helper-2.log"), "event=helper_stop", "reason=supervisor_gone");
        } finally {
            KilledOwners.reclaim(runtime, started.toArray(new Process[0]));
            try (var files = Files.walk(runtime)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Process startHelper(final TestDesktop desktop, final Path runtime, final String nonce,
        final String log, final List<Process> started) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(ChildJvm.javaExecutable());
        command.addAll(ChildJvm.jvmFlags());
        command.add("-cp");
        command.add(ChildJvm.helperClasspath(DIST.resolve("lib") + "/*", SupervisorContext.HELPER_LEFT_OUT));
        command.add(SupervisorContext.HELPER_MAIN_CLASS);
        command.addAll(List.of("--serve", "--display", desktop.display(), "--runtime-dir", runtime.toString()));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(runtime.resolve(log).toFile());
        builder.environment().put(SessionNonce.ENVIRONMENT_VARIABLE, nonce);
        final Process helper = builder.start();
        started.add(helper);
        return helper;
    }

    private static Process startOwner(final TestDesktop desktop, final Path runtime, final String nonce,
        final String log, final List<Process> started) throws Exception {
        final ProcessBuilder builder = new ProcessBuilder(DIST.resolve("bin/saccade").toString(), "owner", "run",
            "--display", desktop.display(), "--runtime-dir", runtime.toString(), "--input-helper", "external")
            .redirectErrorStream(true).redirectOutput(runtime.resolve(log).toFile());
        builder.environment().put("SACCADE_JAVA_OPTS", "-Dsaccade.owner.accessibility=false");
        builder.environment().put(SessionNonce.ENVIRONMENT_VARIABLE, nonce);
        final Process owner = builder.start();
        started.add(owner);
        awaitLog(runtime.resolve(log), "event=helper_link_open", "-" + owner.pid());
        // serving: a client before this meets the killed owner's socket file and is refused
        awaitLog(runtime.resolve(log), "event=start", "endpoint=");
        return owner;
    }

    private static long cpuMs(final Process process) {
        return process.info().totalCpuDuration().orElseThrow().toMillis();
    }

    private static void announce(final Process helper, final Process owner) throws IOException {
        final OutputStream in = helper.getOutputStream();
        in.write(("attach " + owner.pid() + "\n").getBytes(StandardCharsets.US_ASCII));
        in.flush();
    }

    private static AgentClient connect(final Path runtime) throws Exception {
        final AgentClient client = AgentClient.connect(runtime.resolve("saccade-agent-v1.sock"), Duration.ofSeconds(30));
        client.readTimeout(Duration.ofSeconds(20));
        client.hello(1, Capability.POLICY);
        return client;
    }

    private static void hold(final AgentClient client) throws Exception {
        final long cell = HeldInputReleaseDesktopTest.gridCell(client);
        final ActionCompletionFlyweight held = HeldInputReleaseDesktopTest.batch(client,
            a -> a.kind(ActionKind.HOLD).targetId(cell).buttonBits(Button.LEFT));
        assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()));
    }

    /** Waits until one line of {@code log} contains all of {@code parts}. */
    private static void awaitLog(final Path log, final String... parts) throws IOException {
        final BooleanSupplier found = () -> {
            try {
                return Files.exists(log) && Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .anyMatch(line -> java.util.Arrays.stream(parts).allMatch(line::contains));
            } catch (final IOException e) {
                return false;
            }
        };
        Await.until(found, Duration.ofNanos(WAIT_NS), Duration.ofMillis(10), () -> "a line with " + String.join(" ", parts)
            + " in " + log + ":\n" + ProcessLog.read(log));
    }
}
