package dev.saccade.pcp;

import static dev.saccade.pcp.PcpSocketTest.MAIL;
import static dev.saccade.pcp.PcpSocketTest.composeParams;
import static dev.saccade.pcp.PcpSocketTest.error;
import static dev.saccade.pcp.PcpSocketTest.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may approve a confirmation, over the real sockets with real processes (pcp §5.3): not the
 * process that asked, not its descendants, not anyone without the code the user was shown; the
 * user's answer at the prompt, or the code typed by another process, does. The prompt here is
 * the recording one; {@code PcpConfirmationDesktopTest} clicks a real notification.
 */
@Timeout(90)
class PcpConfirmationTest {
    private static final Duration READ = Duration.ofSeconds(30);

    @TempDir
    Path temp;
    private PcpFixture fixture;
    private PcpFixture.App app;

    @BeforeEach
    void start() throws Exception {
        fixture = new PcpFixture(temp, null, c -> { });
        app = fixture.app(MAIL);
        result(app.registered());
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    private static String invokeLine() {
        return JsonTree.write(JsonTree.object("jsonrpc", "2.0", "id", 1L, "method", "invoke.capability",
            "params", composeParams()));
    }

    private static String confirmLine(final String id, final String code) {
        return JsonTree.write(JsonTree.object("jsonrpc", "2.0", "id", 1L, "method", "confirm",
            "params", JsonTree.object("confirmation_id", id, "code", code)));
    }

    @Test
    void aDescendantOfTheRequesterIsRefusedEvenWithTheCode() throws Exception {
        try (PcpClient agent = fixture.client()) {
            final String id = (String) ((Map<?, ?>) error(agent.call("invoke.capability", composeParams(), null),
                PcpError.CONFIRMATION_REQUIRED).get("data")).get("confirmation_id");
            final String code = fixture.prompt.request(id).code;
            // What an agent would run: `saccade pcp confirm ID CODE` from a shell it started.
            try (PeerProcess child = PeerProcess.send(fixture.hostSocket(), confirmLine(id, code), 1)) {
                final Map<?, ?> data = (Map<?, ?>) error(child.message(READ), PcpError.PERMISSION_DENIED).get("data");
                assertEquals("self_confirmation", data.get("reason"));
            }
            error(agent.call("invoke.capability", JsonTree.object("confirmation_id", id), null),
                PcpError.CONFIRMATION_REQUIRED); // still pending: nothing ran
            assertEquals(1L, result(agent.call("health.check", null, null)).get("pending_confirmations"));
        }
    }

    @Test
    void anotherProcessWithTheCodeConfirmsAndAWrongCodeDoesNot() throws Exception {
        try (PeerProcess requester = PeerProcess.send(fixture.socket(), invokeLine(), 2);
             PcpClient user = PcpClient.connect(fixture.hostSocket(), READ)) {
            final Map<?, ?> data = (Map<?, ?>) error(requester.message(READ), PcpError.CONFIRMATION_REQUIRED).get("data");
            final String id = (String) data.get("confirmation_id");
            final String code = fixture.prompt.request(id).code;
            assertFalse(JsonTree.write(data).contains(code), "the requester is never told the code");
            assertEquals("wrong_code", ((Map<?, ?>) error(user.call("confirm", JsonTree.object("confirmation_id", id,
                "code", code.equals("000000") ? "000001" : "000000"), null), PcpError.PERMISSION_DENIED).get("data"))
                .get("reason"));
            // The test JVM is the requester's parent, not its descendant: with the code it confirms.
            final Map<String, Object> confirmed = result(user.call("confirm", JsonTree.object("confirmation_id", id,
                "code", code), null));
            assertEquals(app.process.pid(), ((Map<?, ?>) confirmed.get("data")).get("pid"));
            assertTrue(app.next("invoked", READ).contains("Meeting notes"));
            final Map<String, Object> note = requester.message(READ);
            assertEquals(PcpCoreService.CONFIRMATION_RESOLVED, note.get("method"));
            assertEquals(confirmed, ((Map<?, ?>) note.get("params")).get("result"));
        }
    }

    @Test
    void threeWrongCodesDenyTheConfirmation() throws Exception {
        try (PeerProcess requester = PeerProcess.send(fixture.socket(), invokeLine(), 2);
             PcpClient guesser = PcpClient.connect(fixture.hostSocket(), READ)) {
            final String id = (String) ((Map<?, ?>) error(requester.message(READ), PcpError.CONFIRMATION_REQUIRED)
                .get("data")).get("confirmation_id");
            final String wrong = fixture.prompt.request(id).code.equals("123456") ? "654321" : "123456";
            for (int i = 0; i < Confirmations.WRONG_CODES_ALLOWED; i++) {
                error(guesser.call("confirm", JsonTree.object("confirmation_id", id, "code", wrong), null),
                    PcpError.PERMISSION_DENIED);
            }
            final Map<?, ?> note = (Map<?, ?>) requester.message(READ).get("params");
            assertEquals((long) PcpError.CONFIRMATION_DENIED, ((Map<?, ?>) note.get("error")).get("code"));
            error(guesser.call("confirm", JsonTree.object("confirmation_id", id, "code", fixture.prompt.request(id).code),
                null), PcpError.CONFIRMATION_DENIED);
        }
    }

    @Test
    void withNowhereToAskTheUserTheConfirmationIsDeniedAtOnce() throws Exception {
        fixture.prompt.reach(ConfirmationPrompt.Shown.NOT_SHOWN);
        try (PcpClient agent = fixture.client()) {
            final Map<?, ?> data = (Map<?, ?>) error(agent.call("invoke.capability", composeParams(), null),
                PcpError.CONFIRMATION_DENIED).get("data");
            assertEquals("no_prompt", data.get("reason"));
        }
    }
}
