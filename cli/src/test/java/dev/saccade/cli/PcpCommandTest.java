package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.pcp.ConfirmationPrompt;
import dev.saccade.pcp.JsonTree;
import dev.saccade.pcp.PcpContext;
import dev.saccade.pcp.PcpEndpoint;
import dev.saccade.pcp.TrustedKeys;
import dev.saccade.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code saccade pcp} through the real command line against a real PCP endpoint on a private
 * runtime directory: trust add/list/remove, call, confirm, deny and listen, with the application
 * as a real second process ({@link PcpMailApp}) that is SIGKILLed at the end.
 */
@Timeout(60)
class PcpCommandTest {
    private static final String APP = "org.example.mail";

    @TempDir
    Path temp;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(final CliRun run) throws Exception {
        return (Map<String, Object>) JsonTree.parse(run.out.strip().lines().reduce((a, b) -> b).orElseThrow());
    }

    @Test
    void trustCallConfirmDenyAndListen() throws Exception {
        final Path trust = temp.resolve("trust");
        final KeyPair keys = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        final Path keyFile = temp.resolve("mail.pub");
        Files.writeString(keyFile, TrustedKeys.pem(keys.getPublic()));

        final CliRun added = CliRun.run("pcp", "trust", "--trust-dir", trust.toString(), "add", keyFile.toString());
        assertEquals(ExitCodes.SUCCESS, added.exitCode, added::toString);
        final String fingerprint = added.out.strip();
        assertEquals(TrustedKeys.fingerprint(keys.getPublic()), fingerprint);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(trust)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(trust.resolve(fingerprint + ".pub"))));
        final CliRun listed = CliRun.run("pcp", "trust", "--trust-dir", trust.toString(), "list");
        assertTrue(listed.out.contains(fingerprint), listed::toString);

        final Path run = Files.createDirectory(temp.resolve("run"), PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
        final Map<String, ConfirmationPrompt.Request> prompts = new ConcurrentHashMap<>();
        final Map<String, ConfirmationPrompt.Answer> answers = new ConcurrentHashMap<>();
        // The user at the desktop: what each prompt showed, and the answer to give (a notification in a session).
        final ConfirmationPrompt user = new ConfirmationPrompt() {
            @Override
            public Shown show(final Request request, final Answer answer) {
                prompts.put(request.confirmationId, request);
                answers.put(request.confirmationId, answer);
                return Shown.WITH_ACTIONS;
            }

            @Override
            public void withdraw(final String confirmationId) {
                answers.remove(confirmationId);
            }

            @Override
            public void close() {
                answers.clear();
            }
        };
        try (PcpEndpoint endpoint = PcpEndpoint.start(new PcpContext().runtimeDirectory(run).trustDirectory(trust)
            .prompt(user).conclude(), null)) {
            final String socket = endpoint.server().path().toString();
            final Path privateKey = temp.resolve("mail.key");
            Files.createFile(privateKey, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(privateKey, keys.getPrivate().getEncoded());
            final Process app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), PcpMailApp.class.getName(), socket, privateKey.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            // Registered once query.capabilities lists it.
            final CliRun caps = Await.value(
                () -> CliRun.run("pcp", "call", "--socket", socket, "query.capabilities", "{\"app_id\":\"" + APP + "\"}"),
                r -> r.out.contains(APP + ".compose"), Duration.ofSeconds(20), Duration.ZERO,
                r -> APP + ".compose among the capabilities; last: " + r);
            assertEquals(ExitCodes.SUCCESS, caps.exitCode, caps::toString);

            final String invoke = "{\"capability_id\":\"" + APP + ".compose\",\"app_id\":\"" + APP
                + "\",\"source\":\"SystemIntelligence\",\"params\":{\"recipient\":\"user@example.com\"}}";
            final CliRun asked = CliRun.run("pcp", "call", "--socket", socket, "invoke.capability", invoke);
            assertEquals(ExitCodes.REQUEST_REJECTED, asked.exitCode, asked::toString);
            final Map<?, ?> error = (Map<?, ?>) json(asked).get("error");
            assertEquals(-32005L, error.get("code"));
            final String id = (String) ((Map<?, ?>) error.get("data")).get("confirmation_id");

            // This process asked, so its `pcp confirm` is refused even with the code; the user's answer confirms.
            final CliRun self = CliRun.run("pcp", "confirm", "--socket", socket, id, prompts.get(id).code);
            assertEquals(ExitCodes.REQUEST_REJECTED, self.exitCode, self::toString);
            assertEquals("self_confirmation", ((Map<?, ?>) ((Map<?, ?>) json(self).get("error")).get("data")).get("reason"));
            answers.get(id).allowed();
            final CliRun confirmed = CliRun.run("pcp", "call", "--socket", socket, "invoke.capability",
                "{\"confirmation_id\":\"" + id + "\"}");
            assertEquals(ExitCodes.SUCCESS, confirmed.exitCode, confirmed::toString);
            final Map<?, ?> result = (Map<?, ?>) json(confirmed).get("result");
            assertEquals("success", result.get("status"));
            assertEquals("user@example.com", ((Map<?, ?>) result.get("data")).get("sent_to"));
            assertEquals(app.pid(), ((Map<?, ?>) result.get("data")).get("pid"), "ran in the application's process");

            final String second = (String) ((Map<?, ?>) ((Map<?, ?>) json(CliRun.run("pcp", "call", "--socket", socket,
                "invoke.capability", invoke)).get("error")).get("data")).get("confirmation_id");
            final CliRun denied = CliRun.run("pcp", "deny", "--socket", socket, second);
            assertEquals(ExitCodes.SUCCESS, denied.exitCode, denied::toString);
            final CliRun after = CliRun.run("pcp", "call", "--socket", socket, "invoke.capability",
                "{\"confirmation_id\":\"" + second + "\"}");
            assertEquals(-32006L, ((Map<?, ?>) json(after).get("error")).get("code"), after::toString);
            final CliRun unknown = CliRun.run("pcp", "confirm", "--socket", socket, "confirm-nonexistent", "000000");
            assertEquals(ExitCodes.REQUEST_REJECTED, unknown.exitCode, unknown::toString);

            // listen: subscribe, then an event pushed by the core is printed as one line.
            final CompletableFuture<CliRun> listening = CompletableFuture.supplyAsync(() -> CliRun.run("pcp", "listen",
                "--socket", socket, "--count", "1", "surface.focus_changed"));
            Await.until(endpoint.core()::hasSubscribers, Duration.ofSeconds(20),
                () -> "the listener subscribed; subscribers: " + endpoint.core().hasSubscribers());
            assertEquals(1, endpoint.core().publish("surface.focus_changed", "surface-7", "org.example.other",
                JsonTree.object("surface_id", "surface-7", "focused", true)));
            final CliRun heard = listening.get(20, TimeUnit.SECONDS);
            assertEquals(ExitCodes.SUCCESS, heard.exitCode, heard::toString);
            final Map<String, Object> event = json(heard);
            assertEquals("surface.focus_changed", event.get("method"));
            assertEquals("surface-7", ((Map<?, ?>) event.get("params")).get("surface_id"));

            final CliRun bad = CliRun.run("pcp", "call", "--socket", socket, "health.check", "{not json");
            assertEquals(ExitCodes.USAGE, bad.exitCode, bad::toString);
            app.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL
            // The service sees the connection end (EOF) a moment later: ask until it answers -32010.
            final CliRun[] gone = new CliRun[1];
            final Object code = Await.probe(() -> {
                gone[0] = CliRun.run("pcp", "call", "--socket", socket, "invoke.capability", invoke);
                return ((Map<?, ?>) json(gone[0]).get("error")).get("code");
            }, c -> !Long.valueOf(-32005L).equals(c), Duration.ofSeconds(10),
                c -> "an answer other than -32005 for the killed app; last: " + gone[0]);
            assertEquals(-32010L, code, gone[0]::toString);
        }
        final CliRun closed = CliRun.run("pcp", "call", "--socket", run.resolve("saccade-pcp-v1.sock").toString(), "health.check");
        assertEquals(ExitCodes.CONNECTION_FAILED, closed.exitCode, closed::toString);

        final CliRun removed = CliRun.run("pcp", "trust", "--trust-dir", trust.toString(), "remove", fingerprint);
        assertEquals(ExitCodes.SUCCESS, removed.exitCode, removed::toString);
        assertTrue(CliRun.run("pcp", "trust", "--trust-dir", trust.toString(), "list").out.isBlank());
    }

}
