package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * PCP over the real Unix socket, against real application processes: the seed's examples,
 * signed registration, confirmation (confirm, deny, expiry), the JSON-RPC 2.0 rules and bad
 * input. No desktop needed here: query.surface/elements are proven in PcpDesktopTest.
 */
@Timeout(120)
class PcpSocketTest {
    static final String MAIL = "org.example.mail";

    @TempDir
    Path temp;
    private PcpFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new PcpFixture(temp, null, c -> c.confirmationWindowMs(15_000).invocationTimeoutMs(2_000));
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> result(final Map<String, Object> response) {
        assertTrue(response.containsKey("result"), () -> "expected a result: " + JsonTree.write(response));
        assertFalse(response.containsKey("error"));
        assertEquals("2.0", response.get("jsonrpc"));
        return (Map<String, Object>) response.get("result");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> error(final Map<String, Object> response, final int code) {
        assertTrue(response.containsKey("error"), () -> "expected error " + code + ": " + JsonTree.write(response));
        assertFalse(response.containsKey("result"));
        final Map<String, Object> error = (Map<String, Object>) response.get("error");
        assertEquals((long) code, error.get("code"), () -> JsonTree.write(response));
        assertTrue(error.get("message") instanceof String);
        return error;
    }

    static Map<String, Object> composeParams() {
        return JsonTree.object("capability_id", MAIL + ".compose", "app_id", MAIL, "source", "SystemIntelligence",
            "params", JsonTree.object("recipient", "user@example.com", "subject", "Meeting notes",
                "body", "Here are the notes from today."));
    }

    @Test
    void socketIsPrivateAndDirectoryOwnerOnly() throws Exception {
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fixture.socket(),
            LinkOption.NOFOLLOW_LINKS)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fixture.runtime)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
            fixture.endpoint.audit().path())));
        assertEquals(fixture.runtime.resolve("saccade-pcp-v1.sock"), fixture.socket());
    }

    @Test
    void signedCapabilityRegistersAndIsQueryable() throws Exception {
        final PcpFixture.App app = fixture.app(MAIL);
        final Map<String, Object> registered = result(app.registered());
        assertEquals(true, registered.get("registered"));
        assertEquals(List.of(MAIL + ".compose", MAIL + ".ping", MAIL + ".stall", MAIL + ".erase"),
            registered.get("capability_ids"));
        try (PcpClient client = fixture.client()) {
            // The same signed manifest from another connection cannot take the live application's place.
            final Map<String, Object> replay = PcpTestApplication.manifest();
            replay.put("signature", TrustedKeys.sign(replay, fixture.keys.getPrivate()));
            error(client.call("register.capability", JsonTree.object("app_id", MAIL, "manifest", replay), null),
                PcpError.MANIFEST_INVALID);
            final Map<String, Object> caps = result(client.call("query.capabilities", JsonTree.object("app_id", MAIL), null));
            @SuppressWarnings("unchecked")
            final Map<String, Object> compose = ((List<Map<String, Object>>) caps.get("capabilities")).get(0);
            assertEquals(MAIL + ".compose", compose.get("id"));
            assertEquals("compose", compose.get("name"));
            assertEquals(1L, compose.get("tier"));
            assertEquals("confirm", compose.get("trust_level"));
            assertEquals(MAIL, compose.get("app_id"));
            final Map<String, Object> tier2 = result(client.call("query.capabilities", JsonTree.object("tier", 2L), null));
            assertEquals(1, ((List<?>) tier2.get("capabilities")).size());
            assertEquals(0, ((List<?>) result(client.call("query.capabilities",
                JsonTree.object("app_id", "org.example.none"), null)).get("capabilities")).size());
        }
    }

    @Test
    void tamperedManifestIsRejectedWithSignatureInvalid() throws Exception {
        final PcpFixture.App app = fixture.app(MAIL, "tamper");
        error(app.registered(), PcpError.MANIFEST_SIGNATURE_INVALID);
        try (PcpClient client = fixture.client()) {
            error(client.call("invoke.capability", composeParams(), null), PcpError.APP_NOT_FOUND);
        }
    }

    @Test
    void invalidManifestIsRejectedWithManifestInvalid() throws Exception {
        try (PcpClient client = fixture.client()) {
            final Map<String, Object> manifest = PcpTestApplication.manifest();
            manifest.put("capabilities", List.of(JsonTree.object("name", "x", "tier", 1L, "trust_level", "sometimes")));
            manifest.put("signature", TrustedKeys.sign(manifest, fixture.keys.getPrivate()));
            final Map<String, Object> e = error(client.call("register.capability",
                JsonTree.object("app_id", MAIL, "manifest", manifest), null), PcpError.MANIFEST_INVALID);
            assertEquals("manifest.capabilities[0].trust_level", ((Map<?, ?>) e.get("data")).get("member"));
            error(client.call("register.capability", JsonTree.object("app_id", "not a dns name",
                "manifest", PcpTestApplication.manifest()), null), PcpError.MANIFEST_INVALID);
            final Map<String, Object> unsigned = PcpTestApplication.manifest();
            unsigned.put("signature", "a1b2c3d4...");
            error(client.call("register.capability", JsonTree.object("app_id", MAIL, "manifest", unsigned), null),
                PcpError.MANIFEST_SIGNATURE_INVALID);
        }
    }

    @Test
    void confirmedInvocationRunsInTheApplicationProcessAndReturnsItsResult() throws Exception {
        final PcpFixture.App app = fixture.app(MAIL);
        result(app.registered());
        try (PcpClient client = fixture.client(); PcpClient host = PcpClient.connect(fixture.hostSocket(), Duration.ofSeconds(20))) {
            final Map<String, Object> e = error(client.call("invoke.capability", composeParams(), null),
                PcpError.CONFIRMATION_REQUIRED);
            assertEquals("Confirmation required", e.get("message"));
            @SuppressWarnings("unchecked")
            final Map<String, Object> data = (Map<String, Object>) e.get("data");
            assertEquals(MAIL + ".compose", data.get("capability_id"));
            assertEquals("send", data.get("confirmation_type"));
            assertEquals(15_000L, data.get("undo_window_ms"));
            assertEquals("Send email to user@example.com", data.get("description"));
            final String id = (String) data.get("confirmation_id");
            assertNotNull(id);
            // Nothing ran before the user approved.
            assertTrue(app.process.isAlive());
            error(client.call("invoke.capability", JsonTree.object("confirmation_id", id), null),
                PcpError.CONFIRMATION_REQUIRED);

            // The requester cannot approve its own request, even with the code; only the user's answer does.
            final String code = fixture.prompt.request(id).code;
            assertTrue(fixture.prompt.request(id).body.contains("Send email to user@example.com"));
            assertEquals("self_confirmation", ((Map<?, ?>) error(host.call("confirm", JsonTree.object("confirmation_id", id,
                "code", code), null), PcpError.PERMISSION_DENIED).get("data")).get("reason"));
            fixture.prompt.allow(id);
            final Map<String, Object> note = client.readMessage();
            assertEquals(PcpCoreService.CONFIRMATION_RESOLVED, note.get("method"));
            assertFalse(note.containsKey("id"));
            @SuppressWarnings("unchecked")
            final Map<String, Object> confirmed = (Map<String, Object>) ((Map<?, ?>) note.get("params")).get("result");
            assertEquals("success", confirmed.get("status"));
            @SuppressWarnings("unchecked")
            final Map<String, Object> out = (Map<String, Object>) confirmed.get("data");
            assertEquals(app.process.pid(), out.get("pid"), "ran in the application's own process");
            assertEquals("user@example.com", ((Map<?, ?>) out.get("echo")).get("recipient"));
            assertTrue(app.next("invoked", Duration.ofSeconds(10)).contains("Meeting notes"));

            // The invoker can ask again by confirmation id.
            assertEquals(confirmed, result(client.call("invoke.capability", JsonTree.object("confirmation_id", id), null)));
            // A second approval of the same id does nothing.
            error(host.call("confirm", JsonTree.object("confirmation_id", id, "code", code), null), PcpError.INVALID_PARAMS);
            assertTrue(fixture.prompt.withdrawn.contains(id), "the prompt goes once the confirmation is resolved");
        }
        final List<String> audit = Files.readAllLines(fixture.endpoint.audit().path());
        assertTrue(audit.stream().anyMatch(l -> l.contains("\"resolution\":\"confirmed\"") && l.contains("\"outcome\":\"ok\"")),
            () -> String.join("\n", audit));
        assertTrue(audit.stream().anyMatch(l -> l.contains("\"event\":\"invoke.capability\"") && l.contains("-32005")));
    }

    @Test
    void deniedConfirmationAnswersConfirmationDenied() throws Exception {
        result(fixture.app(MAIL).registered());
        try (PcpClient client = fixture.client(); PcpClient host = PcpClient.connect(fixture.hostSocket(), Duration.ofSeconds(20))) {
            final String id = (String) ((Map<?, ?>) error(client.call("invoke.capability", composeParams(), null),
                PcpError.CONFIRMATION_REQUIRED).get("data")).get("confirmation_id");
            assertEquals(true, result(host.call("deny", JsonTree.object("confirmation_id", id), null)).get("denied"));
            final Map<String, Object> note = client.readMessage();
            assertEquals((long) PcpError.CONFIRMATION_DENIED, ((Map<?, ?>) ((Map<?, ?>) note.get("params")).get("error")).get("code"));
            error(client.call("invoke.capability", JsonTree.object("confirmation_id", id), null), PcpError.CONFIRMATION_DENIED);
            error(host.call("confirm", JsonTree.object("confirmation_id", id), null), PcpError.CONFIRMATION_DENIED);
        }
    }

    @Test
    void unansweredConfirmationExpires(@TempDir final Path other) throws Exception {
        try (PcpFixture shortWindow = new PcpFixture(other, null, c -> c.confirmationWindowMs(300))) {
            result(shortWindow.app(MAIL).registered());
            try (PcpClient client = shortWindow.client()) {
                @SuppressWarnings("unchecked") // a JSON object as the tree reader builds it
                final Map<String, Object> data = (Map<String, Object>) error(client.call("invoke.capability",
                    composeParams(), null), PcpError.CONFIRMATION_REQUIRED).get("data");
                assertEquals(300L, data.get("undo_window_ms"));
                final Map<String, Object> note = client.readMessage(); // pushed at expiry
                assertEquals((long) PcpError.CONFIRMATION_EXPIRED, ((Map<?, ?>) ((Map<?, ?>) note.get("params")).get("error")).get("code"));
                error(client.call("invoke.capability", JsonTree.object("confirmation_id", data.get("confirmation_id")), null),
                    PcpError.CONFIRMATION_EXPIRED);
                try (PcpClient host = PcpClient.connect(shortWindow.hostSocket(), Duration.ofSeconds(20))) {
                    error(host.call("confirm", JsonTree.object("confirmation_id", data.get("confirmation_id")), null),
                        PcpError.CONFIRMATION_EXPIRED);
                }
            }
        }
    }

    @Test
    void trustLevelsTimeoutsAndGoneApplications() throws Exception {
        final PcpFixture.App app = fixture.app(MAIL);
        result(app.registered());
        try (PcpClient client = fixture.client()) {
            final Map<String, Object> ping = JsonTree.object("capability_id", MAIL + ".ping", "app_id", MAIL,
                "source", "SystemIntelligence", "params", JsonTree.object("count", 3L));
            assertEquals("success", result(client.call("invoke.capability", ping, null)).get("status"));
            ping.put("params", JsonTree.object("count", "three"));
            error(client.call("invoke.capability", ping, null), PcpError.INVALID_PARAMS);
            ping.put("params", JsonTree.object("colour", 1L));
            error(client.call("invoke.capability", ping, null), PcpError.INVALID_PARAMS);
            ping.put("params", JsonTree.object());
            ping.put("source", "Somebody");
            error(client.call("invoke.capability", ping, null), PcpError.INVALID_PARAMS);
            error(client.call("invoke.capability", JsonTree.object("capability_id", MAIL + ".erase", "app_id", MAIL,
                "source", "SystemIntelligence"), null), PcpError.PERMISSION_DENIED);
            error(client.call("invoke.capability", JsonTree.object("capability_id", MAIL + ".fly", "app_id", MAIL,
                "source", "SystemIntelligence"), null), PcpError.CAPABILITY_NOT_FOUND);
            error(client.call("invoke.capability", JsonTree.object("capability_id", "org.other.fly", "app_id", "org.other",
                "source", "SystemIntelligence"), null), PcpError.APP_NOT_FOUND);
            final long before = System.nanoTime();
            error(client.call("invoke.capability", JsonTree.object("capability_id", MAIL + ".stall", "app_id", MAIL,
                "source", "SystemIntelligence"), null), PcpError.EXECUTION_TIMEOUT);
            assertTrue(System.nanoTime() - before >= 1_900_000_000L, "waited the invocation timeout");

            app.kill(); // SIGKILL: the registering connection is gone
            ping.put("source", "SystemIntelligence");
            final Map<String, Object> gone = Await.probe(() -> client.call("invoke.capability", ping, null),
                answer -> !answer.containsKey("result"), Duration.ofSeconds(10),
                answer -> "an error for the killed app's capability; last: " + answer);
            error(gone, PcpError.APP_UNRESPONSIVE);
        }
    }

    @Test
    void seedExamplesForRegistrationEventsAndManagement() throws Exception {
        result(fixture.app(MAIL).registered());
        try (PcpClient client = fixture.client()) {
            final Map<String, Object> adapter = result(client.call("register.adapter", JsonTree.object(
                "surface_type", "wayland", "adapter_id", "wl-test", "supported_tiers", List.of(1L, 2L)), null));
            assertEquals(true, adapter.get("bound"));
            assertEquals("wl-test", adapter.get("adapter_id"));
            assertEquals(false, result(client.call("register.adapter", JsonTree.object("surface_type", "x11",
                "adapter_id", "x11", "supported_tiers", List.of(1L)), null)).get("bound"), "built-in stays bound");

            final Map<String, Object> sub = result(client.call("subscribe.events", JsonTree.object(
                "event_types", List.of("surface.focus_changed", "element.state_changed"), "app_id", MAIL), null));
            final String subscriptionId = (String) sub.get("subscription_id");
            assertNotNull(subscriptionId);
            assertEquals(List.of("surface.focus_changed", "element.state_changed"), sub.get("active_events"));
            error(client.call("subscribe.events", JsonTree.object("event_types", List.of("surface.exploded")), null),
                PcpError.INVALID_PARAMS);

            // Pushed events reach the matching subscription as notifications.
            assertEquals(1, fixture.endpoint.core().publish("surface.focus_changed", "surface-42", MAIL,
                JsonTree.object("surface_id", "surface-42", "focused", true)));
            final Map<String, Object> event = client.readMessage();
            assertEquals("surface.focus_changed", event.get("method"));
            assertFalse(event.containsKey("id"));
            final Map<?, ?> params = (Map<?, ?>) event.get("params");
            assertEquals(subscriptionId, params.get("subscription_id"));
            assertEquals("surface-42", params.get("surface_id"));
            assertEquals(true, params.get("focused"));
            assertTrue(params.get("timestamp") instanceof Long);
            assertEquals(0, fixture.endpoint.core().publish("surface.focus_changed", "surface-1", "org.other",
                JsonTree.object("surface_id", "surface-1", "focused", true)), "scoped to the app");

            final Map<String, Object> health = result(client.call("health.check", null, null));
            assertEquals("degraded", health.get("status"), "no desktop scene attached in this test");
            assertTrue(((List<?>) health.get("adapters")).size() >= 3);
            assertTrue(health.get("uptime_ms") instanceof Long);
            assertEquals(2L, health.get("active_sessions"));
            assertEquals(0L, health.get("pending_confirmations"));

            // Only the registering connection or the host revokes.
            assertEquals("not_registrant", ((Map<?, ?>) error(client.call("revoke.app", JsonTree.object("app_id", MAIL),
                null), PcpError.PERMISSION_DENIED).get("data")).get("reason"));
            final Map<String, Object> revoked;
            try (PcpClient host = PcpClient.connect(fixture.hostSocket(), Duration.ofSeconds(20))) {
                revoked = result(host.call("revoke.app", JsonTree.object("app_id", MAIL, "reason", "test"), null));
            }
            assertEquals(true, revoked.get("revoked"));
            assertEquals(1L, revoked.get("terminated_subscriptions"));
            assertEquals(false, result(client.call("unsubscribe.events", JsonTree.object("subscription_id",
                subscriptionId), null)).get("cancelled"), "revocation ended it");
            error(client.call("invoke.capability", composeParams(), null), PcpError.APP_NOT_FOUND);
            error(client.call("revoke.app", JsonTree.object("app_id", MAIL), null), PcpError.APP_NOT_FOUND);

            final String again = (String) result(client.call("subscribe.events", JsonTree.object("event_types",
                List.of("generation.published")), null)).get("subscription_id");
            assertEquals(true, result(client.call("unsubscribe.events", JsonTree.object("subscription_id", again), null))
                .get("cancelled"));
            error(client.call("query.surface", JsonTree.object("surface_id", "surface-42"), null), PcpError.NO_ATSPI2_SUPPORT);
        }
        assertTrue(Files.readString(fixture.endpoint.audit().path()).contains("\"event\":\"revoke.app\""));
    }

    /** The JSON-RPC 2.0 specification's examples (section 7), over the real socket. */
    @Test
    void jsonRpcRulesAsTheSpecificationsExamplesShow() throws Exception {
        try (PcpClient client = fixture.client()) {
            client.send("{\"jsonrpc\": \"2.0\", \"method\": \"foobar, \"params\": \"bar\", \"baz]");
            assertEquals("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"},\"id\":null}",
                client.readLine());
            client.send("{\"jsonrpc\": \"2.0\", \"method\": 1, \"params\": \"bar\"}");
            assertEquals("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"},\"id\":null}",
                client.readLine());
            client.send("[{\"jsonrpc\": \"2.0\", \"method\": \"sum\", \"params\": [1,2,4], \"id\": \"1\"},"
                + "{\"jsonrpc\": \"2.0\", \"method\"]");
            assertEquals("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"},\"id\":null}",
                client.readLine());
            client.send("[]");
            assertEquals("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"},\"id\":null}",
                client.readLine());
            client.send("[1]");
            assertEquals("[{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"},\"id\":null}]",
                client.readLine());
            client.send("[1,2,3]");
            assertEquals(3, ((List<?>) JsonTree.parse(client.readLine())).size());
            client.send("{\"jsonrpc\": \"2.0\", \"method\": \"foobar\", \"id\": \"1\"}");
            final Map<String, Object> unknown = client.readMessage();
            error(unknown, PcpError.METHOD_NOT_FOUND);
            assertEquals("1", unknown.get("id"));
            // Mixed batch: a request, two notifications, an invalid member, an unknown method.
            client.send("[{\"jsonrpc\":\"2.0\",\"method\":\"health.check\",\"id\":\"1\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"health.check\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"query.capabilities\",\"params\":{},\"id\":\"2\"},"
                + "{\"foo\":\"boo\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"foo.get\",\"params\":{\"name\":\"myself\"},\"id\":\"5\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"no.such\"}]");
            @SuppressWarnings("unchecked")
            final List<Map<String, Object>> batch = (List<Map<String, Object>>) JsonTree.parse(client.readLine());
            assertEquals(4, batch.size());
            assertEquals("1", batch.get(0).get("id"));
            result(batch.get(0));
            assertEquals("2", batch.get(1).get("id"));
            result(batch.get(1));
            error(batch.get(2), PcpError.INVALID_REQUEST);
            assertEquals(JsonTree.NULL, batch.get(2).get("id"));
            error(batch.get(3), PcpError.METHOD_NOT_FOUND);
            assertEquals("5", batch.get(3).get("id"));
            // All notifications: nothing comes back; the next request's answer is the next line.
            client.send("[{\"jsonrpc\":\"2.0\",\"method\":\"health.check\"},{\"jsonrpc\":\"2.0\",\"method\":\"no.such\"}]");
            client.send("{\"jsonrpc\":\"2.0\",\"method\":\"health.check\",\"id\":7}");
            assertEquals(7L, client.readMessage().get("id"));
            // By-position params and wrong types are -32602; the id comes back as sent.
            client.send("{\"jsonrpc\":\"2.0\",\"method\":\"query.surface\",\"params\":[1],\"id\":8}");
            error(client.readMessage(), PcpError.INVALID_PARAMS);
            client.send("{\"jsonrpc\":\"2.0\",\"method\":\"query.surface\",\"params\":{\"surface_id\":42},\"id\":9}");
            final Map<String, Object> wrongType = client.readMessage();
            error(wrongType, PcpError.INVALID_PARAMS);
            assertEquals(9L, wrongType.get("id"));
            client.send("{\"jsonrpc\":\"1.0\",\"method\":\"health.check\",\"id\":10}");
            error(client.readMessage(), PcpError.INVALID_REQUEST);
            // Still serving.
            result(client.call("health.check", null, null));
        }
    }

    @Test
    void oversizedLineIsAnsweredAndTheConnectionKeepsWorking(@TempDir final Path other) throws Exception {
        try (PcpFixture small = new PcpFixture(other, null, c -> c.maxLineBytes(4096)); PcpClient client = small.client()) {
            final byte[] huge = new byte[100_000];
            java.util.Arrays.fill(huge, (byte) 'x');
            client.sendRaw(huge);
            client.sendRaw("\n".getBytes(StandardCharsets.UTF_8));
            final Map<String, Object> e = error(client.readMessage(), PcpError.INVALID_REQUEST);
            assertEquals(4096L, ((Map<?, ?>) e.get("data")).get("max_line_bytes"));
            assertEquals("degraded", result(client.call("health.check", null, null)).get("status"));
            result(client.call("query.capabilities", JsonTree.object(), null));
        }
    }

    @Test
    void floodPastTheRateLimitIsRateLimitedWithRetryAfter(@TempDir final Path other) throws Exception {
        try (PcpFixture limited = new PcpFixture(other, null, c -> c.rate(20, 10)); PcpClient client = limited.client();
             PcpClient neighbour = limited.client()) {
            final StringBuilder flood = new StringBuilder();
            for (int i = 0; i < 50; i++) {
                flood.append("{\"jsonrpc\":\"2.0\",\"method\":\"health.check\",\"id\":").append(i).append("}\n");
            }
            client.sendRaw(flood.toString().getBytes(StandardCharsets.UTF_8));
            int ok = 0;
            int limitedCount = 0;
            long retryAfter = 0;
            for (int i = 0; i < 50; i++) {
                final Map<String, Object> reply = client.readMessage();
                if (reply.containsKey("result")) {
                    ok++;
                } else {
                    final Map<String, Object> e = error(reply, PcpError.RATE_LIMITED);
                    retryAfter = (Long) ((Map<?, ?>) e.get("data")).get("retry_after_ms");
                    limitedCount++;
                }
            }
            assertTrue(ok >= 20 && ok < 30, "burst of 20 plus what refilled: " + ok);
            assertEquals(50 - ok, limitedCount);
            assertTrue(retryAfter >= 1 && retryAfter <= 100, "retry after " + retryAfter);
            // Another connection has its own bucket; the service keeps working.
            result(neighbour.call("health.check", null, null));
            result(Await.probe(() -> client.call("health.check", null, null), answer -> answer.containsKey("result"),
                Duration.ofSeconds(5), answer -> "the limited connection served again; last: " + answer));
        }
    }

    @Test
    @SuppressWarnings("try") // the second client is closed early on purpose: its slot is what the test frees
    void connectionsBeyondTheLimitAreClosedAndTheServiceServesTheOthers(@TempDir final Path other) throws Exception {
        try (PcpFixture limited = new PcpFixture(other, null, c -> c.maxConnections(2));
             PcpClient first = limited.client(); PcpClient second = limited.client()) {
            result(first.call("health.check", null, null));
            result(second.call("health.check", null, null));
            try (PcpClient third = limited.client()) {
                assertThrows(java.io.IOException.class, () -> third.call("health.check", null, null), "closed at accept");
            }
            assertTrue(limited.endpoint.server().refusedConnections() >= 1);
            result(first.call("health.check", null, null));
            second.close();
            // a freed slot is served again; the close is seen asynchronously
            result(Await.retrying(() -> {
                try (PcpClient fourth = limited.client()) {
                    return fourth.call("health.check", null, null);
                }
            }, java.io.IOException.class, Duration.ofSeconds(10), Duration.ofMillis(10), "a freed slot served again"));
        }
    }

    @Test
    void subscriptionsEndWithTheirConnection() throws Exception {
        try (PcpClient client = fixture.client()) {
            result(client.call("subscribe.events", JsonTree.object("event_types", List.of("generation.published")), null));
            assertTrue(fixture.endpoint.core().hasSubscribers());
        }
        Await.until(() -> !fixture.endpoint.core().hasSubscribers(), Duration.ofSeconds(5),
            () -> "no subscriber once its connection closed; still " + fixture.endpoint.core().hasSubscribers());
    }

    @Test
    void tcpNeedsTheBearerToken(@TempDir final Path other) throws Exception {
        final Path token = other.resolve("token");
        Files.createFile(token, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(token, "0123456789abcdef0123456789abcdef\n");
        final Path run = Files.createDirectory(other.resolve("x"));
        try (PcpFixture tcp = new PcpFixture(run, null, c -> c.tcp(0, token))) {
            final int port = tcp.endpoint.server().tcpPort();
            try (Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(("Authorization: Bearer 0123456789abcdef0123456789abcdef\n"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"health.check\",\"id\":1}\n").getBytes(StandardCharsets.UTF_8));
                final String line = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(),
                    StandardCharsets.UTF_8)).readLine();
                assertEquals(1L, ((Map<?, ?>) JsonTree.parse(line)).get("id"));
            }
            try (Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(("Authorization: Bearer wrong-token-wrong-token\n"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"health.check\",\"id\":1}\n").getBytes(StandardCharsets.UTF_8));
                assertEquals(-1, s.getInputStream().read(), "closed unanswered");
            }
        }
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
        assertThrows(java.io.IOException.class, () -> PcpEndpoint.readToken(token));
    }

    @Test
    void closingTheServiceEndsItsConnectionsAndUnlinksTheSocket() throws Exception {
        try (PcpClient client = fixture.client()) {
            result(client.call("health.check", null, null));
            fixture.endpoint.server().close();
            assertThrows(java.io.IOException.class, client::readLine);
        }
        assertFalse(Files.exists(fixture.socket(), LinkOption.NOFOLLOW_LINKS));
    }
}
