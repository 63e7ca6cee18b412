package dev.saccade.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.ipc.ChildJvm;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * The supervisor in this JVM with real child processes that start fast: {@link StubOwner} (the
 * owner's side of the link, through a distribution whose {@code bin/saccade} runs it) and the
 * {@code StubHelper.java} source file as the input helper. Proves the helper contract (nonce in
 * the environment only, {@code attach <ownerPid>} for every new owner and every new helper,
 * helper restarted after SIGKILL) and that connects queue, never refused, while owners change.
 */
class SupervisorTest {
    @TempDir
    Path dir;

    private Supervisor supervisor;
    private Path runtime;

    @BeforeEach
    void start() throws Exception {
        final Path dist = Files.createDirectories(dir.resolve("dist"));
        Files.createDirectories(dist.resolve("lib"));
        Files.createFile(dist.resolve("lib/saccade-cli-9.9.9-stub.jar"));
        final Path launcher = Files.createDirectories(dist.resolve("bin")).resolve("saccade");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + ChildJvm.javaExecutable() + "' -cp '"
            + System.getProperty("java.class.path") + "' " + StubOwner.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        final Path helper = Path.of(SupervisorTest.class.getResource("/StubHelper.java").toURI());
        runtime = dir.resolve("run");
        supervisor = Supervisor.start(new SupervisorContext().runtimeDirectory(runtime).distribution(dist)
            .display(":stub").inputHelper(InputHelperMode.SUPERVISED).helperMain(helper.toString())
            .healthyResetMs(200).conclude());
    }

    @AfterEach
    void stop() {
        supervisor.close();
    }

    @Test
    @Timeout(120)
    void helperGetsTheNonceByEnvironmentAndIsAttachedToEveryNewOwner() throws Exception {
        final long owner1 = awaitRunning("owner", -1);
        final long helper1 = awaitRunning("helper", -1);
        await(() -> helperLog().contains("pid=" + helper1 + " got attach " + owner1), "helper attached to the first owner");
        assertTrue(helperLog().contains("pid=" + helper1 + " nonce_length=32"), helperLog());
        final String cmdline = Files.readString(Path.of("/proc/" + helper1 + "/cmdline"));
        assertTrue(cmdline.contains("--serve") && cmdline.contains("--display"), cmdline);
        assertFalse(Pattern.compile("[0-9a-f]{32}").matcher(cmdline).find(), "no nonce on the command line: " + cmdline);

        final String restarted = request(ControlRequest.restart("owner"));
        final long owner2 = pidOf(restarted);
        assertNotEquals(owner1, owner2);
        await(() -> helperLog().contains("pid=" + helper1 + " got attach " + owner2), "the same helper re-attached");

        ProcessHandle.of(helper1).orElseThrow().destroyForcibly();
        final long helper2 = awaitRunning("helper", helper1);
        await(() -> helperLog().contains("pid=" + helper2 + " got attach " + owner2), "a restarted helper attaches to the owner");
        assertTrue(request(ControlRequest.status()).matches(".*\"name\":\"helper\".*\"restarts\":\"1\".*"),
            request(ControlRequest.status()));

        final String helperRestart = request(ControlRequest.restart("helper"));
        assertTrue(helperRestart.startsWith("{\"ok\":true,\"helper_pid\":\""), helperRestart);
        final long helper3 = awaitRunning("helper", helper2);
        await(() -> helperLog().contains("pid=" + helper3 + " got attach " + owner2), "restart helper attaches it");
    }

    /**
     * Ready means an action would be accepted: an owner that says its helper is
     * not attached leaves the supervisor not ready, with the reason, until it says it is; and
     * not ready again when it loses it.
     */
    @Test
    @Timeout(120)
    void readyOnlyWhileTheServingOwnerSaysItsHelperIsAttached() throws Exception {
        awaitRunning("owner", -1);
        await(() -> status().contains("\"ready\":false,\"not_ready\":\"the owner's input helper is not attached"),
            "not ready while the owner's helper is down: " + status());
        final Path up = runtime.resolve(StubOwner.INPUT_UP_FILE);
        Files.createFile(up);
        await(() -> status().contains("\"ready\":true") && !status().contains("not_ready"), "ready once it is up");
        Files.delete(up);
        await(() -> status().contains("\"ready\":false"), "not ready when it is lost again");
    }

    private String status() {
        try {
            return request(ControlRequest.status());
        } catch (final Exception e) {
            return e.toString();
        }
    }

    @Test
    @Timeout(120)
    void connectsQueueWhileOwnersAreKilledOrReplaced() throws Exception {
        long owner = awaitRunning("owner", -1);
        final AtomicLong refused = new AtomicLong();
        final AtomicLong answered = new AtomicLong();
        final AtomicLong dropped = new AtomicLong();
        final Thread client = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                final AFUNIXSocketChannel c;
                try {
                    c = AFUNIXSocketChannel.open(AFUNIXSocketAddress.of(runtime.resolve(RuntimeDirectory.AGENT_SOCKET_NAME)));
                } catch (final IOException e) {
                    refused.incrementAndGet(); // the connect itself failed: the endpoint went dark
                    continue;
                }
                try (c) {
                    final ByteBuffer reply = ByteBuffer.allocate(32);
                    while (c.read(reply) > 0) {
                        // until the stub owner closes after its pid line
                    }
                    if (reply.position() > 0) {
                        answered.incrementAndGet();
                    } else {
                        dropped.incrementAndGet(); // taken by an owner killed before it answered
                    }
                } catch (final IOException e) {
                    dropped.incrementAndGet();
                }
            }
        }, "stub-client");
        client.start();
        try {
            for (int i = 0; i < 5; i++) {
                final long before = answered.get();
                ProcessHandle.of(owner).orElseThrow().destroyForcibly();
                owner = awaitRunning("owner", owner);
                await(() -> answered.get() > before + 3, "answers from the replacement");
                final long beforeRestart = answered.get();
                owner = pidOf(request(ControlRequest.restart("owner")));
                await(() -> answered.get() > beforeRestart + 3, "answers after the planned restart");
            }
        } finally {
            client.interrupt();
            client.join(10_000);
        }
        assertEquals(0, refused.get(), "a connect was refused; answered " + answered.get());
        System.out.printf("stub owners: 5 kills and 5 planned restarts, %d answered, 0 refused, %d dropped by a kill%n",
            answered.get(), dropped.get());
        assertTrue(Files.exists(runtime.resolve(RuntimeDirectory.AGENT_SOCKET_NAME), LinkOption.NOFOLLOW_LINKS));
    }

    private String request(final String line) throws IOException {
        return SupervisorClient.request(runtime.resolve(RuntimeDirectory.SUPERVISOR_SOCKET_NAME), line, 60_000);
    }

    private String helperLog() {
        try {
            return Files.readString(runtime.resolve(SupervisorContext.HELPER_LOG_NAME));
        } catch (final IOException e) {
            return "";
        }
    }

    private long awaitRunning(final String child, final long notPid) throws IOException {
        final Pattern running = Pattern.compile("\"name\":\"" + child + "\",\"running\":true,\"pid\":\"(\\d+)\"");
        final String status = Await.probe(() -> request(ControlRequest.status()), reply -> {
            final Matcher m = running.matcher(reply);
            return m.find() && Long.parseLong(m.group(1)) != notPid;
        }, Duration.ofSeconds(60), Duration.ofMillis(10), reply -> "a running " + child + "; status: " + reply);
        final Matcher m = running.matcher(status);
        assertTrue(m.find(), status);
        return Long.parseLong(m.group(1));
    }

    private static long pidOf(final String reply) {
        final Matcher m = Pattern.compile("\"pid\":\"(\\d+)\"").matcher(reply);
        assertTrue(m.find(), reply);
        return Long.parseLong(m.group(1));
    }

    private void await(final BooleanSupplier condition, final String what) {
        Await.until(condition, Duration.ofSeconds(60), Duration.ofMillis(5), () -> what + "; helper log: " + helperLog());
    }
}
