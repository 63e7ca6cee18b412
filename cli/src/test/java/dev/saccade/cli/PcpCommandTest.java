package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.pcp.JsonTree;
import dev.saccade.owner.pcp.PcpClient;
import dev.saccade.owner.pcp.PcpContext;
import dev.saccade.owner.pcp.PcpEndpoint;
import dev.saccade.owner.pcp.TrustedKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code saccade pcp} through the real command line against a real PCP endpoint on a private
 * runtime directory: trust add/list/remove, call, confirm, deny and listen. The application is
 * a thread speaking PCP over its own socket connection (the separate-process proof lives in
 * owner-service's PcpSocketTest).
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
        try (PcpEndpoint endpoint = PcpEndpoint.start(new PcpContext().runtimeDirectory(run).trustDirectory(trust)
            .conclude(), null)) {
            final String socket = endpoint.server().path().toString();
            final CompletableFuture<Void> app = CompletableFuture.runAsync(() -> serveApp(endpoint.server().path(), keys));
            // Registered once query.capabilities lists it.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            CliRun caps;
            do {
                caps = CliRun.run("pcp", "call", "--socket", socket, "query.capabilities", "{\"app_id\":\"" + APP + "\"}");
            } while (!caps.out.contains(APP + ".compose") && System.nanoTime() < deadline);
            assertEquals(ExitCodes.SUCCESS, caps.exitCode, caps::toString);

            final String invoke = "{\"capability_id\":\"" + APP + ".compose\",\"app_id\":\"" + APP
                + "\",\"source\":\"SystemIntelligence\",\"params\":{\"recipient\":\"user@example.com\"}}";
            final CliRun asked = CliRun.run("pcp", "call", "--socket", socket, "invoke.capability", invoke);
            assertEquals(ExitCodes.REQUEST_REJECTED, asked.exitCode, asked::toString);
            final Map<?, ?> error = (Map<?, ?>) json(asked).get("error");
            assertEquals(-32005L, error.get("code"));
            final String id = (String) ((Map<?, ?>) error.get("data")).get("confirmation_id");

            final CliRun confirmed = CliRun.run("pcp", "confirm", "--socket", socket, id);
            assertEquals(ExitCodes.SUCCESS, confirmed.exitCode, confirmed::toString);
            final Map<?, ?> result = (Map<?, ?>) json(confirmed).get("result");
            assertEquals("success", result.get("status"));
            assertEquals("user@example.com", ((Map<?, ?>) result.get("data")).get("sent_to"));

            final String second = (String) ((Map<?, ?>) ((Map<?, ?>) json(CliRun.run("pcp", "call", "--socket", socket,
                "invoke.capability", invoke)).get("error")).get("data")).get("confirmation_id");
            final CliRun denied = CliRun.run("pcp", "deny", "--socket", socket, second);
            assertEquals(ExitCodes.SUCCESS, denied.exitCode, denied::toString);
            final CliRun after = CliRun.run("pcp", "call", "--socket", socket, "invoke.capability",
                "{\"confirmation_id\":\"" + second + "\"}");
            assertEquals(-32006L, ((Map<?, ?>) json(after).get("error")).get("code"), after::toString);
            final CliRun unknown = CliRun.run("pcp", "confirm", "--socket", socket, "confirm-nonexistent");
            assertEquals(ExitCodes.REQUEST_REJECTED, unknown.exitCode, unknown::toString);

            // listen: subscribe, then an event pushed by the core is printed as one line.
            final CompletableFuture<CliRun> listening = CompletableFuture.supplyAsync(() -> CliRun.run("pcp", "listen",
                "--socket", socket, "--count", "1", "surface.focus_changed"));
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!endpoint.core().hasSubscribers() && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            endpoint.core().publish("surface.focus_changed", "surface-7", "org.example.other",
                JsonTree.object("surface_id", "surface-7", "focused", true));
            final CliRun heard = listening.get(20, TimeUnit.SECONDS);
            assertEquals(ExitCodes.SUCCESS, heard.exitCode, heard::toString);
            final Map<String, Object> event = json(heard);
            assertEquals("surface.focus_changed", event.get("method"));
            assertEquals("surface-7", ((Map<?, ?>) event.get("params")).get("surface_id"));

            final CliRun bad = CliRun.run("pcp", "call", "--socket", socket, "health.check", "{not json");
            assertEquals(ExitCodes.USAGE, bad.exitCode, bad::toString);
            app.cancel(true);
        }
        final CliRun gone = CliRun.run("pcp", "call", "--socket", run.resolve("saccade-pcp-v1.sock").toString(), "health.check");
        assertEquals(ExitCodes.CONNECTION_FAILED, gone.exitCode, gone::toString);

        final CliRun removed = CliRun.run("pcp", "trust", "--trust-dir", trust.toString(), "remove", fingerprint);
        assertEquals(ExitCodes.SUCCESS, removed.exitCode, removed::toString);
        assertTrue(CliRun.run("pcp", "trust", "--trust-dir", trust.toString(), "list").out.isBlank());
    }

    /** The application: registers a signed {@code compose} (trust confirm) and answers its invocations. */
    private static void serveApp(final Path socket, final KeyPair keys) {
        try (PcpClient client = PcpClient.connect(socket, Duration.ofSeconds(60))) {
            final Map<String, Object> manifest = JsonTree.object("version", "1.0", "capabilities", List.of(
                JsonTree.object("name", "compose", "tier", 1L, "trust_level", "confirm", "parameters",
                    List.of(JsonTree.object("name", "recipient", "type", "string")))));
            manifest.put("signature", TrustedKeys.sign(manifest, keys.getPrivate()));
            client.call("register.capability", JsonTree.object("app_id", APP, "manifest", manifest), null);
            while (true) {
                final Map<String, Object> request = client.readMessage();
                final Map<?, ?> params = (Map<?, ?>) ((Map<?, ?>) request.get("params")).get("params");
                client.send(JsonTree.write(JsonTree.object("jsonrpc", "2.0", "id", request.get("id"), "result",
                    JsonTree.object("status", "success", "data", JsonTree.object("sent_to", params.get("recipient"))))));
            }
        } catch (final Exception e) {
            // The endpoint closed at the end of the test: the application ends with it.
        }
    }
}
