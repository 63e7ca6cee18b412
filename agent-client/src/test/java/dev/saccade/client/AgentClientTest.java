package dev.saccade.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import java.io.EOFException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFUNIXServerSocketChannel;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;

class AgentClientTest {
    private static final Duration CONNECT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    @Test
    @Timeout(10)
    void missingSocketFileMeansServiceUnavailableWithHowToStartIt() {
        final Path path = dir.resolve(RuntimeDirectory.AGENT_SOCKET_NAME);

        final ServiceUnavailableException e =
            assertThrows(ServiceUnavailableException.class, () -> AgentClient.connect(path, CONNECT));

        assertEquals(path, e.path());
        assertTrue(e.getMessage().contains("not running at " + path), e.getMessage());
        assertTrue(e.getMessage().contains("saccade up") && e.getMessage().contains("saccade owner run"),
            e.getMessage());
    }

    @Test
    @Timeout(10)
    void refusedConnectOnLeftoverSocketMeansServiceUnavailable() throws Exception {
        final Path path = dir.resolve("agent.sock");
        try (AFUNIXServerSocketChannel gone = AFUNIXServerSocketChannel.open()) {
            gone.socket().setReuseAddress(false);
            gone.setDeleteOnClose(false);
            gone.bind(AFUNIXSocketAddress.of(path), 1);
        }

        final ServiceUnavailableException e =
            assertThrows(ServiceUnavailableException.class, () -> AgentClient.connect(path, CONNECT));

        assertTrue(e.getMessage().contains("connection refused"), e.getMessage());
    }

    @Test
    @Timeout(10)
    void connectTimesOutWhileTheBacklogStaysFull() throws Exception {
        final Path path = dir.resolve("agent.sock");
        final List<AFUNIXSocketChannel> queued = new ArrayList<>();
        try (AFUNIXServerSocketChannel neverAccepts = AFUNIXServerSocketChannel.open()) {
            neverAccepts.socket().setReuseAddress(false);
            neverAccepts.setDeleteOnClose(false);
            neverAccepts.bind(AFUNIXSocketAddress.of(path), 1);
            while (true) { // fill the backlog until a non-blocking connect reports EAGAIN
                final AFUNIXSocketChannel c = AFUNIXSocketChannel.open();
                c.configureBlocking(false);
                queued.add(c);
                if (!c.connect(AFUNIXSocketAddress.of(path))) {
                    break;
                }
            }
            final long startNs = System.nanoTime();

            assertThrows(SocketTimeoutException.class, () -> AgentClient.connect(path, Duration.ofMillis(200)));

            final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
            assertTrue(elapsedMs >= 200 && elapsedMs < 3_000, "gave up after " + elapsedMs + " ms");
        } finally {
            for (final AFUNIXSocketChannel c : queued) {
                c.close();
            }
        }
    }

    @Test
    @Timeout(10)
    void helloReturnsRequestedBitsAllowedByPolicy() throws Exception {
        try (TestService service = TestService.start(dir.resolve("agent.sock"), TestService::hello);
             AgentClient client = AgentClient.connect(service.path(), CONNECT)) {
            assertEquals(Capability.POLICY, client.hello(1, 0x3F), "CLIPBOARD and SETTINGS are never granted");
            assertEquals(Capability.OBSERVE, client.hello(2, Capability.OBSERVE), "Hello may be repeated");
        }
    }

    @Test
    @Timeout(10)
    void deniedHelloIsTypedAndLeavesTheConnectionUsable() throws Exception {
        try (TestService service = TestService.start(dir.resolve("agent.sock"), TestService::hello);
             AgentClient client = AgentClient.connect(service.path(), CONNECT)) {
            final HelloRefusedException e =
                assertThrows(HelloRefusedException.class, () -> client.hello(7, Capability.CLIPBOARD));

            assertEquals(ResultCode.CAPABILITY_DENIED, e.result());
            assertEquals(ResultCode.PLATFORM_PERMISSION, e.platformError());
            assertTrue(client.isOpen());
            assertEquals(Capability.OBSERVE | Capability.WINDOW,
                client.hello(8, Capability.OBSERVE | Capability.WINDOW));
        }
    }

    @Test
    @Timeout(10)
    void sendsCallerFrameAndReturnsTheValidatedReplyInPlace() throws Exception {
        final TestService.Handler observe = (in, at, length, out, outAt) -> {
            final int total = AgentAbi.MAX_MESSAGE_BYTES; // the largest reply, to cross many reads
            final CompletionFlyweight c = new CompletionFlyweight().wrap(out, outAt).clear();
            c.header().set(CompletionFlyweight.LENGTH, AgentAbi.OBSERVE_COMPLETION, 0);
            c.requestId(in.readLong(at + HelloRequestFlyweight.REQUEST_ID_OFFSET)).totalSize(total)
                .targetStride(88).targetsOffset(CompletionFlyweight.LENGTH);
            out.writeByte(outAt + total - 1, (byte) 0x5A);
            return total;
        };
        try (TestService service = TestService.start(dir.resolve("agent.sock"), observe);
             AgentClient client = AgentClient.connect(service.path(), CONNECT)) {
            final BytesStore<?, byte[]> frame = BytesStore.wrap(new byte[8 + 96]);
            frame.writeLong(8 + HelloRequestFlyweight.REQUEST_ID_OFFSET, 99);

            client.send(frame, 8, 96);
            final AgentClient.Reply reply = client.receive(AgentAbi.OBSERVE_COMPLETION);

            assertEquals(AgentAbi.MAX_MESSAGE_BYTES, reply.length());
            assertEquals(AgentAbi.OBSERVE_COMPLETION, reply.kind());
            final CompletionFlyweight c = new CompletionFlyweight().wrap(reply.bytes(), reply.offset());
            assertEquals(99, c.requestId());
            assertEquals(0x5A, reply.bytes().readByte(reply.offset() + reply.length() - 1));
        }
    }

    @Test
    @Timeout(10)
    void replyFailingValidationIsAProtocolErrorAndClosesTheClient() throws Exception {
        final TestService.Handler garbage = (in, at, length, out, outAt) -> {
            out.zeroOut(outAt, outAt + 16);
            out.writeInt(outAt, 16);
            out.writeInt(outAt + 4, 0x00020000); // another API version
            return 16;
        };
        try (TestService service = TestService.start(dir.resolve("agent.sock"), garbage);
             AgentClient client = AgentClient.connect(service.path(), CONNECT)) {
            final AgentProtocolException e =
                assertThrows(AgentProtocolException.class, () -> client.hello(1, Capability.OBSERVE));

            assertEquals(CompletionValidator.BAD_HEADER, e.verdict());
            assertFalse(client.isOpen());
        }
    }

    @Test
    @Timeout(10)
    void replyOfAnotherKindIsAProtocolError() throws Exception {
        try (TestService service = TestService.start(dir.resolve("agent.sock"), TestService::hello);
             AgentClient client = AgentClient.connect(service.path(), CONNECT)) {
            final BytesStore<?, byte[]> frame = BytesStore.wrap(new byte[HelloRequestFlyweight.LENGTH]);
            new HelloRequestFlyweight().wrap(frame, 0).header().set(48, AgentAbi.HELLO_REQUEST, 0);
            client.send(frame, 0, HelloRequestFlyweight.LENGTH);

            assertEquals(CompletionValidator.BAD_KIND, assertThrows(AgentProtocolException.class,
                () -> client.receive(AgentAbi.OBSERVE_COMPLETION)).verdict());
        }
    }

    @Test
    @Timeout(10)
    void serviceClosingWithoutReplyIsEof() throws Exception {
        try (TestService service = TestService.start(dir.resolve("agent.sock"),
                (in, at, length, out, outAt) -> TestService.DISCONNECT);
             AgentClient client = AgentClient.connect(service.path(), CONNECT)) {
            final EOFException e = assertThrows(EOFException.class, () -> client.hello(1, Capability.OBSERVE));

            assertTrue(e.getMessage().contains("without a reply"), e.getMessage());
            assertFalse(client.isOpen());
        }
    }

    @Test
    @Timeout(10)
    void noReplyWithinTheReadTimeoutIsATimeoutAndClosesTheClient() throws Exception {
        try (TestService service = TestService.start(dir.resolve("agent.sock"),
                (in, at, length, out, outAt) -> TestService.NO_REPLY);
             AgentClient client = AgentClient.connect(service.path(), CONNECT).readTimeout(Duration.ofMillis(300))) {
            final long startNs = System.nanoTime();

            assertThrows(SocketTimeoutException.class, () -> client.hello(1, Capability.OBSERVE));

            final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
            assertTrue(elapsedMs >= 300 && elapsedMs < 3_000, "timed out after " + elapsedMs + " ms");
            assertFalse(client.isOpen());
        }
    }

    @Test
    @Timeout(10)
    void rejectsFramesOutsideTheLimitsBeforeSending() throws Exception {
        try (TestService service = TestService.start(dir.resolve("agent.sock"), TestService::hello);
             AgentClient client = AgentClient.connect(service.path(), CONNECT)) {
            final BytesStore<?, byte[]> frame = BytesStore.wrap(new byte[16]);
            assertThrows(IllegalArgumentException.class, () -> client.send(frame, 0, 15));
            assertThrows(IllegalArgumentException.class, () -> client.send(AgentAbi.MAX_MESSAGE_BYTES + 1));
            assertTrue(Files.exists(service.path(), LinkOption.NOFOLLOW_LINKS));
            assertEquals(Capability.OBSERVE, client.hello(3, Capability.OBSERVE), "nothing was sent");
        }
    }
}
