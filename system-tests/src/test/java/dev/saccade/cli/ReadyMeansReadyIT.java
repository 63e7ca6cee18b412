package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.ActionBatchBuilder;
import dev.saccade.client.ActionExchange;
import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TextMatch;
import dev.saccade.supervisor.ControlRequest;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Ready means ready, with real processes: a real supervisor with its input
 * helper, a real owner and a real zenity. The supervisor's status says ready only once an action
 * would be accepted, and the first batch sent when it says so is accepted. Then the helper is
 * SIGKILLed: status says not ready (and why) while the supervisor starts the next one, and a
 * batch sent in that window waits for it within its deadline instead of answering
 * EXECUTOR_LOST. The proof that it ran is zenity's own output: it prints what the batch typed.
 */
@WithTestDesktop
class ReadyMeansReadyIT {
    private static final Pattern HELPER = Pattern.compile("\"name\":\"helper\",\"running\":true,\"pid\":\"(\\d+)\"");
    /** HID usages: a, b, Return. */
    private static final int KEY_A = 0x04;
    private static final int KEY_B = 0x05;
    private static final int KEY_RETURN = 0x28;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void statusIsReadyOnlyWhenAnActionWouldBeAcceptedAndABatchWaitsForTheNextHelper(final TestDesktop desktop)
        throws Exception {
        final Path out = Files.createTempFile("saccade-ready-zenity", ".out");
        final Process zenity = desktop.configure(new ProcessBuilder("zenity", "--entry", "--title", "ready means ready",
            "--text", "type here")).redirectOutput(out.toFile()).redirectErrorStream(false).start();
        try (SupervisedSession s = SupervisedSession.startWithHelpers(desktop.display(), "SUPERVISED")) {
            // 1. ready: and then the first batch is accepted at once (no EXECUTOR_LOST window)
            String status = awaitStatus(s, true, 120_000);
            try (AgentClient client = connect(s)) {
                // the keys go to whatever has the focus: zenity's window must have it first (in one
                // CI run the "a" typed right after ready went nowhere and zenity printed only "b")
                final long window = desktop.awaitWindow(zenity.pid(), "ready means ready", 60_000);
                Await.probe(() -> ActionEffectsDesktopTest.query(client, 0, null, TextMatch.EXACT).generation().windowId(),
                    active -> active == window, Duration.ofSeconds(60),
                    active -> "zenity's window " + window + " active in the scene; last " + active);
                final ActionCompletionFlyweight first = keys(client, 1, KEY_A);
                assertEquals(ResultCode.OK, first.result(), "the first batch after ready: " + ResultCode.name(first.result()));

                // 2. the helper is SIGKILLed: status says not ready, with the reason
                final Matcher helper = HELPER.matcher(status);
                assertTrue(helper.find(), status);
                final long helperPid = Long.parseLong(helper.group(1));
                final long killedNs = System.nanoTime();
                ProcessHandle.of(helperPid).orElseThrow().destroyForcibly();
                final String notReady = awaitStatus(s, false, 30_000);
                assertTrue(notReady.contains("input helper is not attached"), notReady);
                final long notReadyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs);

                // 3. a batch sent now waits for the next helper and runs on it
                final long sentNs = System.nanoTime();
                final ActionCompletionFlyweight waited = keys(client, 2, KEY_B, KEY_RETURN);
                final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentNs);
                assertEquals(ResultCode.OK, waited.result(), "a batch sent while the helper reattaches: "
                    + ResultCode.name(waited.result()) + s.ownerLog());
                assertEquals(2, waited.completedActionCount());
                final String readyAgain = awaitStatus(s, true, 30_000);
                final Matcher next = HELPER.matcher(readyAgain);
                assertTrue(next.find() && Long.parseLong(next.group(1)) != helperPid, readyAgain);

                // 4. the application's word: zenity printed what both batches typed and exited 0
                assertTrue(zenity.waitFor(30, TimeUnit.SECONDS), "zenity is still open");
                assertEquals(0, zenity.exitValue());
                assertEquals("ab", Files.readString(out, StandardCharsets.UTF_8).trim());
                System.out.printf("ready means ready: status not ready %d ms after the helper's SIGKILL; "
                    + "the batch sent then waited %d ms for the next helper and ran%n", notReadyMs, waitedMs);
            }
        } finally {
            zenity.destroyForcibly();
            Files.deleteIfExists(out);
        }
    }

    /** Polls the supervisor's status until its "ready" is {@code ready}; returns that status. */
    private static String awaitStatus(final SupervisedSession s, final boolean ready, final long timeoutMs) throws Exception {
        final String wanted = "\"ready\":" + ready;
        final String status = Await.probe(() -> {
            try {
                return s.request(ControlRequest.status());
            } catch (final java.io.IOException notYet) {
                return ""; // the control socket is not bound yet
            }
        }, reply -> reply.contains(wanted) || !s.process.isAlive(), Duration.ofMillis(timeoutMs), Duration.ofMillis(5),
            reply -> "a status that says " + wanted + "; last: " + reply + s.tail());
        assertTrue(status.contains(wanted), () -> "supervisor exited: " + s.tail());
        return status;
    }

    private static AgentClient connect(final SupervisedSession s) throws Exception {
        final AgentClient client = AgentClient.connect(s.endpoint(), Duration.ofSeconds(30));
        client.readTimeout(Duration.ofSeconds(60));
        client.hello(1, Capability.OBSERVE | Capability.KEYBOARD);
        return client;
    }

    /** One live batch of key taps on whatever has the focus (zenity's entry), 30 s deadline. */
    private static ActionCompletionFlyweight keys(final AgentClient client, final long id, final int... usages)
        throws Exception {
        final ActionBatchBuilder b = new ActionBatchBuilder().requestId(id).dryRun(false)
            .deadlineNs(System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
        for (int i = 0; i < usages.length; i++) {
            if (i > 0) {
                b.nextAction();
            }
            b.kind(ActionKind.KEY).keyUsage(usages[i]);
        }
        final ActionExchange exchange = new ActionExchange();
        return exchange.roundTrip(client, b.writeTo(client.requestStore(), client.requestOffset()));
    }
}
