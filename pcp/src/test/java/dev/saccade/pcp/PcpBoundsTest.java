package dev.saccade.pcp;

import static dev.saccade.pcp.PcpSocketTest.error;
import static dev.saccade.pcp.PcpSocketTest.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one peer can make PCP hold, over the real socket (pcp §9): a line's tokens and batch,
 * rate-limit tokens per batch member, the outgoing queue of a peer that never reads,
 * subscriptions and adapters per connection, eviction fair per process on both sockets, and
 * revocation by the registrant or the host only.
 */
@Timeout(120)
class PcpBoundsTest {
    private static final Duration READ = Duration.ofSeconds(30);

    @TempDir
    Path temp;
    private PcpFixture fixture;
    private final List<PcpClient> clients = new ArrayList<>();

    private PcpFixture start(final java.util.function.Consumer<PcpContext> settings) throws Exception {
        fixture = new PcpFixture(temp, null, settings);
        return fixture;
    }

    private PcpClient connect(final Path socket) throws IOException {
        final PcpClient c = PcpClient.connect(socket, READ);
        clients.add(c);
        return c;
    }

    @AfterEach
    void stop() throws Exception {
        for (final PcpClient c : clients) {
            c.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void aMegabyteOfZerosIsOneShortRefusalNotATreeAndAReplyOfItsSize() throws Exception {
        final PcpClient client = connect(start(c -> { }).socket());
        final StringBuilder zeros = new StringBuilder(1 << 20).append('[');
        for (int i = 0; i < 500_000; i++) {
            zeros.append("0,");
        }
        client.send(zeros.append("0]").toString());
        final String reply = client.readLine();
        assertTrue(reply.length() < 512, () -> "a short answer, got " + reply.length() + " characters");
        @SuppressWarnings("unchecked")
        final Map<String, Object> refused = (Map<String, Object>) JsonTree.parse(reply);
        assertEquals((long) JsonRpc.MAX_LINE_TOKENS, ((Map<?, ?>) error(refused, PcpError.INVALID_REQUEST).get("data"))
            .get("max_line_tokens"));
        result(client.call("health.check", null, null));
    }

    @Test
    void aBatchOverTheCapIsRefusedWholeAndNothingOfItRuns() throws Exception {
        final PcpClient client = connect(start(c -> { }).socket());
        client.send(batch(JsonRpc.MAX_BATCH + 1, i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"subscribe.events\","
            + "\"params\":{\"event_types\":[\"generation.published\"]}}"));
        final Map<String, Object> refused = client.readMessage();
        assertEquals((long) JsonRpc.MAX_BATCH, ((Map<?, ?>) error(refused, PcpError.INVALID_REQUEST).get("data"))
            .get("max_batch"));
        assertTrue(!fixture.endpoint.core().hasSubscribers(), "no member of the refused batch ran");
        client.send(batch(JsonRpc.MAX_BATCH, i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"health.check\"}"));
        assertEquals(JsonRpc.MAX_BATCH, ((List<?>) JsonTree.parse(client.readLine())).size());
    }

    @Test
    void everyBatchMemberTakesARateLimitTokenWhateverItIs() throws Exception {
        final PcpClient client = connect(start(c -> c.rate(10, 1)).socket());
        client.send(batch(20, i -> Integer.toString(i))); // twenty members that are not even objects
        int invalid = 0;
        int limited = 0;
        for (final Object r : (List<?>) JsonTree.parse(client.readLine())) {
            final Object code = ((Map<?, ?>) ((Map<?, ?>) r).get("error")).get("code");
            invalid += Long.valueOf(PcpError.INVALID_REQUEST).equals(code) ? 1 : 0;
            limited += Long.valueOf(PcpError.RATE_LIMITED).equals(code) ? 1 : 0;
        }
        assertTrue(invalid >= 10 && invalid <= 11, "the burst of 10 (and what refilled) answered -32600: " + invalid);
        assertEquals(20 - invalid, limited, "the rest answered -32018");
    }

    @Test
    void aPeerThatNeverReadsIsDisconnectedNotBuffered() throws Exception {
        start(c -> { });
        final PcpClient hoarder = connect(fixture.socket());
        final String bigId = "x".repeat(500_000);
        final Thread sender = new Thread(() -> {
            try {
                for (int i = 0; i < 60; i++) { // 30 MB of replies asked for, none read
                    hoarder.send("{\"jsonrpc\":\"2.0\",\"id\":\"" + bigId + i + "\",\"method\":\"no.such.method\"}");
                }
            } catch (final IOException closed) {
                // the service closed the connection while we were still sending: what the test waits for
            }
        }, "pcp-hoarder");
        sender.setDaemon(true);
        sender.start();
        Await.until(() -> fixture.endpoint.server().connections() == 0, Duration.ofSeconds(60),
            () -> "the service closed the peer that never reads; connections: " + fixture.endpoint.server().connections());
        result(connect(fixture.socket()).call("health.check", null, null));
    }

    @Test
    void subscriptionsPerConnectionAreCapped() throws Exception {
        final PcpClient client = connect(start(c -> { }).socket());
        String first = null;
        for (int i = 0; i < Subscriptions.MAX_PER_CONNECTION; i++) {
            final String id = (String) result(client.call("subscribe.events", JsonTree.object("event_types",
                List.of("generation.published")), null)).get("subscription_id");
            first = first == null ? id : first;
        }
        final Map<String, Object> refused = error(client.call("subscribe.events", JsonTree.object("event_types",
            List.of("generation.published")), null), PcpError.RATE_LIMITED);
        assertEquals((long) Subscriptions.MAX_PER_CONNECTION, ((Map<?, ?>) refused.get("data")).get("max_subscriptions"));
        error(client.call("subscribe.events", JsonTree.object("event_types", List.of("generation.published"),
            "surface_id", "s".repeat(Subscriptions.MAX_FILTER_CHARS + 1)), null), PcpError.INVALID_PARAMS);
        result(client.call("unsubscribe.events", JsonTree.object("subscription_id", first), null));
        result(client.call("subscribe.events", JsonTree.object("event_types", List.of("generation.published")), null));
    }

    @Test
    void adaptersAreCappedBoundedAndEndWithTheirConnection() throws Exception {
        start(c -> { });
        final PcpClient binder = connect(fixture.socket());
        final PcpClient neighbour = connect(fixture.socket());
        error(binder.call("register.adapter", adapter("a".repeat(Adapters.MAX_ID_CHARS + 1)), null), PcpError.INVALID_PARAMS);
        for (int i = 0; i < Adapters.MAX_PER_CONNECTION; i++) {
            assertEquals(true, result(binder.call("register.adapter", adapter("ad-" + i), null)).get("bound"));
        }
        error(binder.call("register.adapter", adapter("one-too-many"), null), PcpError.RATE_LIMITED);
        assertEquals(2 + Adapters.MAX_PER_CONNECTION, adapters(neighbour).size());
        binder.close();
        // The service lets a connection go only once its adapters are gone (PcpCoreService.disconnected first).
        Await.until(() -> fixture.endpoint.server().connections() == 1, READ,
            () -> "the binder's connection ended; connections: " + fixture.endpoint.server().connections());
        assertEquals(2, adapters(neighbour).size(), "only the built-in adapters are left");
        assertEquals(true, result(neighbour.call("register.adapter", adapter("ad-0"), null)).get("bound"),
            "the id is free again");
    }

    @Test
    void oneProcessHoldingEverySlotWithSubscriptionsGivesOneUpForAnotherProcess() throws Exception {
        start(c -> { });
        for (int i = 0; i < PcpConfiguration.MAX_CONNECTIONS_DEFAULT; i++) {
            result(connect(fixture.socket()).call("subscribe.events", JsonTree.object("event_types",
                List.of("generation.published")), null));
        }
        try (PeerProcess other = PeerProcess.send(fixture.socket(),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"health.check\"}", 1)) {
            result(other.message(READ));
        }
        assertEquals(1, fixture.endpoint.server().evictedConnections());
    }

    @Test
    void oneProcessKeepingEveryHostSlotBusyGivesOneUpForTheUser() throws Exception {
        start(c -> { });
        final List<PcpClient> busy = new ArrayList<>();
        for (int i = 0; i < PcpConfiguration.MAX_CONNECTIONS_DEFAULT; i++) {
            busy.add(connect(fixture.hostSocket()));
        }
        final Map<String, Object> deny = JsonTree.object("confirmation_id", "confirm-none");
        final Thread pinger = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                for (final PcpClient c : busy) {
                    try {
                        c.call("deny", deny, null); // never idle for a second
                    } catch (final IOException evicted) {
                        // this one was closed for the newcomer; the others keep pinging
                    }
                }
            }
        }, "pcp-host-pinger");
        pinger.setDaemon(true);
        pinger.start();
        try (PeerProcess user = PeerProcess.send(fixture.hostSocket(),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"deny\",\"params\":{\"confirmation_id\":\"confirm-none\"}}", 1)) {
            error(user.message(READ), PcpError.INVALID_PARAMS); // answered: the unknown id, not a closed socket
        } finally {
            pinger.interrupt();
        }
    }

    @Test
    void onlyTheRegistrantOrTheHostRevokesAndAReplayedManifestStaysRevoked() throws Exception {
        start(c -> { });
        final PcpFixture.App app = fixture.app(PcpSocketTest.MAIL);
        result(app.registered());
        final PcpClient other = connect(fixture.socket());
        assertEquals("not_registrant", ((Map<?, ?>) error(other.call("revoke.app", JsonTree.object("app_id",
            PcpSocketTest.MAIL), null), PcpError.PERMISSION_DENIED).get("data")).get("reason"));
        result(other.call("invoke.capability", JsonTree.object("capability_id", PcpSocketTest.MAIL + ".ping", "app_id",
            PcpSocketTest.MAIL, "source", "SystemIntelligence"), null)); // still the application's
        result(connect(fixture.hostSocket()).call("revoke.app", JsonTree.object("app_id", PcpSocketTest.MAIL), null));

        final Map<String, Object> replay = PcpTestApplication.manifest();
        replay.put("signature", TrustedKeys.sign(replay, fixture.keys.getPrivate()));
        final Map<String, Object> refused = error(other.call("register.capability", JsonTree.object("app_id",
            PcpSocketTest.MAIL, "manifest", replay), null), PcpError.MANIFEST_INVALID);
        assertEquals("revoked by the user", ((Map<?, ?>) refused.get("data")).get("reason"));
        error(other.call("invoke.capability", JsonTree.object("capability_id", PcpSocketTest.MAIL + ".ping", "app_id",
            PcpSocketTest.MAIL, "source", "SystemIntelligence"), null), PcpError.APP_NOT_FOUND);
    }

    private static Map<String, Object> adapter(final String id) {
        return JsonTree.object("surface_type", "wayland", "adapter_id", id, "supported_tiers", List.of(1L));
    }

    private static List<?> adapters(final PcpClient client) throws IOException {
        return (List<?>) result(client.call("health.check", null, null)).get("adapters");
    }

    private static String batch(final int n, final java.util.function.IntFunction<String> member) {
        final StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append(member.apply(i));
        }
        return b.append(']').toString();
    }
}
