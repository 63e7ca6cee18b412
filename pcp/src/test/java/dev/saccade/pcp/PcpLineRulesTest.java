package dev.saccade.pcp;

import static dev.saccade.pcp.PcpSocketTest.error;
import static dev.saccade.pcp.PcpSocketTest.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * PCP's line rules over its real socket: every line that is not a notification gets an
 * answer (a request-shaped line without a method, an escaped key), a refusal for a full queue
 * echoes the request's id exactly, a last line without its newline is answered, and malformed
 * UTF-8 anywhere in a line is −32700.
 */
@Timeout(60)
class PcpLineRulesTest {
    private static final String MAIL = "org.example.mail";

    @TempDir
    Path temp;
    private PcpFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new PcpFixture(temp, null, c -> c.invocationTimeoutMs(3_000).rate(100_000, 100_000));
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void aRequestWithoutMethodIsInvalidEvenWhenItMentionsErrorOrResult() throws Exception {
        try (PcpClient client = fixture.client()) {
            client.send("{\"jsonrpc\":\"2.0\",\"id\":22,\"params\":{\"note\":\"error\"}}");
            final Map<String, Object> invalid = client.readMessage();
            error(invalid, PcpError.INVALID_REQUEST);
            assertEquals(22L, invalid.get("id"));
            client.send("{\"jsonrpc\":\"2.0\",\"id\":24,\"params\":{\"result\":1}}");
            final Map<String, Object> mentionsResult = client.readMessage();
            error(mentionsResult, PcpError.INVALID_REQUEST);
            assertEquals(24L, mentionsResult.get("id"));
            client.send("{\"jsonrpc\":\"2.0\",\"id\":23,\"\\u006dethod\":\"health.check\"}");
            final Map<String, Object> escaped = client.readMessage();
            result(escaped);
            assertEquals(23L, escaped.get("id"));
        }
    }

    @Test
    void idsAreEchoedExactly() throws Exception {
        try (PcpClient client = fixture.client()) {
            for (final String id : new String[] {"1e3", "-0", "1.50", "12345678901234567890123", "\"a\\u00e9\\\"b\""}) {
                client.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"health.check\"}");
                final String line = client.readLine();
                assertTrue(line.contains("\"id\":" + id.replace("\\u00e9", "\u00e9")), line);
            }
            client.send("{\"jsonrpc\":\"2.0\",\"id\":1e3,\"method\":\"no.such\"}");
            assertTrue(client.readLine().endsWith("\"id\":1e3}"), "an error's id too");
        }
    }

    @Test
    void aFullQueueRefusesEachRequestWithItsOwnId() throws Exception {
        fixture.app(MAIL).registered();
        try (PcpClient client = fixture.client()) {
            final int burst = 200;
            final StringBuilder lines = new StringBuilder();
            // the stall occupies the worker for the invocation timeout: the queue behind it fills
            lines.append("{\"jsonrpc\":\"2.0\",\"id\":\"stall\",\"method\":\"invoke.capability\",\"params\":")
                .append(JsonTree.write(JsonTree.object("capability_id", MAIL + ".stall", "app_id", MAIL,
                    "source", "SystemIntelligence"))).append("}\n");
            for (int i = 0; i < burst; i++) {
                lines.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i).append(",\"method\":\"health.check\"}\n");
            }
            lines.append("{\"jsonrpc\":\"2.0\",\"method\":\"health.check\"}\n"); // a notification: never answered
            client.sendRaw(lines.toString().getBytes(StandardCharsets.UTF_8));
            final Set<Object> ids = new HashSet<>();
            int refused = 0;
            for (int i = 0; i < burst + 1; i++) {
                final Map<String, Object> reply = client.readMessage();
                assertTrue(ids.add(reply.get("id")), () -> "one reply per id: " + JsonTree.write(reply));
                if (reply.containsKey("error") && ((Map<?, ?>) reply.get("error")).get("code").equals((long) PcpError.RATE_LIMITED)) {
                    refused++;
                }
            }
            assertTrue(refused >= burst - JsonRpcConnection.PENDING_REQUESTS, "refused " + refused);
            assertTrue(ids.contains("stall"));
            for (long i = 0; i < burst; i++) {
                assertTrue(ids.contains(i), "id " + i + " answered");
            }
        }
    }

    @Test
    void aLastLineWithoutNewlineIsAnswered() throws Exception {
        try (AFUNIXSocket socket = AFUNIXSocket.connectTo(AFUNIXSocketAddress.of(fixture.socket()))) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"health.check\"}"
                .getBytes(StandardCharsets.UTF_8));
            socket.shutdownOutput();
            final ByteArrayOutputStream all = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(all);
            final String reply = all.toString(StandardCharsets.UTF_8);
            assertTrue(reply.startsWith("{") && reply.contains("\"result\"") && reply.contains("\"id\":5"), reply);
        }
    }

    /** Requests that are well-formed but for one malformed UTF-8 sequence (or a byte order mark). */
    static final byte[][] MALFORMED = {
        latin1("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"health.chec\u00C1\u00AB\"}"), // overlong 'k'
        latin1("{\"jsonrpc\":\"2.0\",\"id\":\"\u00C0\u00AF\",\"method\":\"health.check\"}"), // overlong '/'
        latin1("{\"jsonrpc\":\"2.0\",\"id\":\"\u00ED\u00A0\u0080\",\"method\":\"health.check\"}"), // surrogate
        latin1("{\"jsonrpc\":\"2.0\",\"id\":\"\u00F4\u0090\u0080\u0080\",\"method\":\"health.check\"}"),
        latin1("{\"jsonrpc\":\"2.0\",\"id\":\"\u00E2\u0082\",\"method\":\"health.check\"}"), // truncated
        latin1("\u00EF\u00BB\u00BF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"health.check\"}"), // BOM
    };

    /** The bytes of {@code s} one for one: each char below U+0100 stands for the byte of that value. */
    private static byte[] latin1(final String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void malformedUtf8AnywhereInALineIsAParseError() throws Exception {
        try (PcpClient client = fixture.client()) {
            for (final byte[] bad : MALFORMED) {
                client.sendRaw(bad);
                client.sendRaw(new byte[] {'\n'});
                final Map<String, Object> reply = client.readMessage();
                error(reply, PcpError.PARSE_ERROR);
                assertEquals(JsonTree.NULL, reply.get("id"), new String(bad, StandardCharsets.ISO_8859_1));
            }
            result(client.call("health.check", null, null));
        }
    }
}
