package dev.saccade.cli;

import static dev.saccade.cli.McpProcess.INITIALIZE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFUNIXServerSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * Malformed UTF-8: the real {@code saccade mcp} process answers −32700 with a null id for a
 * line with malformed UTF-8 anywhere (an overlong method name or id, an encoded surrogate, an
 * overlong "/" in query text) and for a byte order mark, and such a line never reaches the
 * service: nothing connects to the listening socket it is pointed at.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class McpMalformedUtf8Test {
    private static final String PARSE_ERROR =
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";

    @TempDir
    Path dir;

    @Test
    void malformedUtf8AndAByteOrderMarkAreParseErrorsAndReachNoService() throws Exception {
        final List<byte[]> lines = List.of(
            latin1("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"pin\u00C1\u00A7\"}"), // overlong 'g': not ping
            latin1("{\"jsonrpc\":\"2.0\",\"id\":\"\u00C0\u00AF\",\"method\":\"ping\"}"), // overlong '/'
            latin1("{\"jsonrpc\":\"2.0\",\"id\":\"\u00ED\u00B0\u0080\",\"method\":\"ping\"}"), // a surrogate
            latin1("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"saccade_query\",\"arguments\":{\"text\":\"r0\u00C0\u00AFc0\"}}}"),
            latin1("\u00EF\u00BB\u00BF{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}"));
        final AFUNIXServerSocket server = AFUNIXServerSocket.newInstance();
        server.bind(AFUNIXSocketAddress.of(dir.resolve("s.sock")));
        final AtomicInteger connections = new AtomicInteger();
        final Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    server.accept().close();
                    connections.incrementAndGet();
                }
            } catch (final IOException closed) {
                // the test is over
            }
        });
        acceptor.start();
        try (McpProcess mcp = McpProcess.start(dir.resolve("s.sock"))) {
            mcp.call(INITIALIZE);
            for (final byte[] line : lines) {
                mcp.write(line);
                mcp.write(new byte[] {'\n'});
                assertEquals(PARSE_ERROR, mcp.read(), new String(line, StandardCharsets.ISO_8859_1));
            }
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", mcp.call("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}"),
                "still serving");
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
        } finally {
            server.close();
            acceptor.join(10_000);
        }
        assertEquals(0, connections.get(), "no line reached the service");
    }

    /** The bytes of {@code s} one for one: each char below U+0100 stands for the byte of that value. */
    private static byte[] latin1(final String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
