package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.testsupport.Await;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrameChannelTest {
    private static final long STEP_DEADLINE_NS = TimeUnit.SECONDS.toNanos(20);

    @TempDir
    Path dir;

    private Loopback loop;
    private FrameChannel frames;

    @BeforeEach
    void connect() throws Exception {
        loop = Loopback.open(dir);
        frames = new FrameChannel().attach(loop.server);
    }

    @AfterEach
    void disconnect() throws Exception {
        frames.close();
        loop.close();
    }

    @Test
    @Timeout(10)
    void assemblesFrameArrivingOneByteAtATime() throws Exception {
        final byte[] payload = pattern(48, 7);
        final ByteBuffer wire = ByteBuffer.allocate(4 + 48).order(ByteOrder.LITTLE_ENDIAN).putInt(48).put(payload).flip();

        for (int i = 0; i < wire.limit() - 1; i++) {
            loop.writeFully(ByteBuffer.wrap(wire.array(), i, 1));
            assertEquals(FrameChannel.NEED_MORE, frames.readStep(), "after byte " + i);
        }
        loop.writeFully(ByteBuffer.wrap(wire.array(), wire.limit() - 1, 1));

        assertEquals(FrameChannel.FRAME_READY, frames.readStep());
        assertEquals(48, frames.frameLength());
        assertArrayEquals(payload, read(frames.requestStore(), frames.requestOffset(), 48));
        reply(pattern(56, 3));
        assertEquals(FrameChannel.IDLE, frames.writeStep());
        final ByteBuffer got = loop.readExactly(4 + 56);
        assertEquals(56, got.getInt());
        assertArrayEquals(pattern(56, 3), rest(got));
    }

    @ParameterizedTest
    @ValueSource(ints = {AgentAbi.MIN_FRAME_BYTES, AgentAbi.MAX_MESSAGE_BYTES})
    @Timeout(30)
    void passesFramesAtBothLimits(final int length) throws Exception {
        final byte[] payload = pattern(length, 11);
        final CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                loop.sendFrame(payload); // 1 MiB does not fit the socket buffer: needs the reader
            } catch (final Exception e) {
                throw new AssertionError(e);
            }
        });

        assertEquals(FrameChannel.FRAME_READY, readUntilDone());
        writer.get(10, TimeUnit.SECONDS);
        assertEquals(length, frames.frameLength());
        assertArrayEquals(payload, read(frames.requestStore(), frames.requestOffset(), length));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, AgentAbi.MIN_FRAME_BYTES - 1, AgentAbi.MAX_MESSAGE_BYTES + 1, 0xFFFF_FFFFL})
    @Timeout(10)
    void closesWithoutWritingAByteWhenLengthIsOutsideTheLimits(final long length) throws Exception {
        final ByteBuffer prefix = ByteBuffer.allocate(4 + 16).order(ByteOrder.LITTLE_ENDIAN);
        prefix.putInt((int) length).put(new byte[16]).flip();
        loop.writeFully(prefix);

        assertEquals(FrameChannel.CLOSED, frames.readStep());
        assertEquals(FrameChannel.CLOSE_BAD_FRAME_LENGTH, frames.closeReason());
        assertFalse(frames.isAttached());
        assertClosedWithoutAByte(loop);
        assertEquals(FrameChannel.CLOSED, frames.readStep());
        assertEquals(FrameChannel.CLOSED, frames.writeStep());
    }

    @Test
    @Timeout(10)
    void honoursASmallerConfiguredRequestCapacity() throws Exception {
        frames.disconnect();
        try (Loopback other = reconnect(); FrameChannel small = new FrameChannel(64, 64).attach(other.server)) {
            other.sendFrame(pattern(64, 1));
            assertEquals(FrameChannel.FRAME_READY, small.readStep(), "64 fits");
            small.responseStore().write(small.responseOffset(), pattern(64, 2), 0, 64);
            small.beginReply(64);
            assertEquals(FrameChannel.IDLE, small.writeStep());
            other.readExactly(4 + 64);
            other.sendFrame(pattern(65, 1));
            assertEquals(FrameChannel.CLOSED, small.readStep(), "65 does not");
            assertEquals(FrameChannel.CLOSE_BAD_FRAME_LENGTH, small.closeReason());
        }
    }

    @Test
    @Timeout(10)
    void closesOnEofInTheMiddleOfAFrame() throws Exception {
        loop.writeFully(ByteBuffer.allocate(4 + 10).order(ByteOrder.LITTLE_ENDIAN).putInt(48).put(new byte[10]).flip());
        assertEquals(FrameChannel.NEED_MORE, frames.readStep());

        loop.client.shutdownOutput();

        assertEquals(FrameChannel.CLOSED, frames.readStep());
        assertEquals(FrameChannel.CLOSE_EOF, frames.closeReason());
    }

    @Test
    @Timeout(10)
    void readsNoFurtherFrameUntilTheReplyIsWritten() throws Exception {
        loop.sendFrame(pattern(16, 1));
        loop.sendFrame(pattern(32, 2)); // pipelined by a misbehaving client

        assertEquals(FrameChannel.FRAME_READY, frames.readStep());
        assertEquals(16, frames.frameLength());
        assertEquals(FrameChannel.FRAME_READY, frames.readStep(), "still the first frame");
        assertEquals(16, frames.frameLength());
        assertThrows(IllegalStateException.class, frames::writeStep, "no reply begun");

        reply(pattern(16, 9));
        assertThrows(IllegalStateException.class, frames::readStep, "a reply is in progress");
        assertEquals(FrameChannel.IDLE, frames.writeStep());

        assertEquals(FrameChannel.FRAME_READY, frames.readStep());
        assertEquals(32, frames.frameLength());
        assertArrayEquals(pattern(32, 2), read(frames.requestStore(), frames.requestOffset(), 32));
    }

    @Test
    @Timeout(10)
    void noticesAPeerThatClosedWhileItsFrameWasHeld() throws Exception {
        loop.sendFrame(pattern(16, 1));
        assertEquals(FrameChannel.FRAME_READY, readUntilDone());
        assertEquals(FrameChannel.FRAME_READY, frames.checkPeerWhileHeld(), "peer still there");
        loop.client.close();
        final long deadlineNs = System.nanoTime() + STEP_DEADLINE_NS;
        int status;
        while ((status = frames.checkPeerWhileHeld()) != FrameChannel.CLOSED) {
            Await.check(deadlineNs, "EOF of the closed peer");
            Thread.onSpinWait();
        }
        assertEquals(FrameChannel.CLOSE_EOF, frames.closeReason());
    }

    @Test
    @Timeout(10)
    void keepsTheNextFramesLengthReadWhileAFrameWasHeld() throws Exception {
        loop.sendFrame(pattern(16, 1));
        assertEquals(FrameChannel.FRAME_READY, readUntilDone());
        loop.sendFrame(pattern(40, 3)); // pipelined: its length is read early by the check
        final long deadlineNs = System.nanoTime() + STEP_DEADLINE_NS;
        while (frames.checkPeerWhileHeld() == FrameChannel.FRAME_READY && frames.lookaheadBytes() < 4) {
            Await.check(deadlineNs, "the lookahead to fill");
            Thread.onSpinWait();
        }
        assertEquals(FrameChannel.FRAME_READY, frames.checkPeerWhileHeld());
        reply(pattern(16, 9));
        assertEquals(FrameChannel.IDLE, frames.writeStep());
        assertEquals(FrameChannel.FRAME_READY, readUntilDone());
        assertEquals(40, frames.frameLength());
        assertArrayEquals(pattern(40, 3), read(frames.requestStore(), frames.requestOffset(), 40));
    }

    @Test
    @Timeout(30)
    void resumesAOneMebibyteReplyHeldBackByAClientThatReadsLate() throws Exception {
        loop.sendFrame(pattern(16, 1));
        assertEquals(FrameChannel.FRAME_READY, frames.readStep());
        final byte[] big = pattern(AgentAbi.MAX_MESSAGE_BYTES, 5);

        reply(big);
        assertEquals(FrameChannel.WRITING, frames.writeStep(), "1 MiB cannot fit the socket buffer");
        assertEquals(FrameChannel.WRITING, frames.writeStep(), "and nothing drains it yet");
        assertTrue(frames.isWriting());

        final CompletableFuture<ByteBuffer> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return loop.readExactly(4 + big.length);
            } catch (final Exception e) {
                throw new AssertionError(e);
            }
        });
        final long deadlineNs = System.nanoTime() + STEP_DEADLINE_NS;
        int status;
        while ((status = frames.writeStep()) == FrameChannel.WRITING) {
            Await.check(deadlineNs, "the reply to drain");
            Thread.onSpinWait();
        }
        assertEquals(FrameChannel.IDLE, status);
        final ByteBuffer got = reader.get(10, TimeUnit.SECONDS);
        assertEquals(big.length, got.getInt());
        assertArrayEquals(big, rest(got));

        loop.sendFrame(pattern(20, 4)); // the connection goes on
        assertEquals(FrameChannel.FRAME_READY, readUntilDone());
        assertEquals(20, frames.frameLength());
    }

    /**
     * A 1 MiB reply whose header is in the response buffer and whose body is in a buffer shared
     * with another connection's reply (D20: no per-reply copy): both arrive whole and in
     * order, interleaved writes of the two connections included, and the shared buffer's own
     * bytes are untouched.
     */
    @Test
    @Timeout(30)
    void sendsAReplyWhoseBodyComesFromABufferSharedBetweenConnections() throws Exception {
        final int head = 200;
        final byte[] whole = pattern(AgentAbi.MAX_MESSAGE_BYTES, 9);
        final ByteBuffer shared = ByteBuffer.allocateDirect(whole.length);
        shared.put(0, new byte[head]).put(head, whole, head, whole.length - head);
        try (Loopback other = Loopback.open(java.nio.file.Files.createDirectory(dir.resolve("other"),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")))); FrameChannel second = new FrameChannel()) {
            second.attach(other.server);
            loop.sendFrame(pattern(16, 1));
            other.sendFrame(pattern(16, 2));
            assertEquals(FrameChannel.FRAME_READY, frames.readStep());
            assertEquals(FrameChannel.FRAME_READY, readUntilDone(second));
            for (final FrameChannel ch : new FrameChannel[] {frames, second}) {
                ch.responseStore().write(ch.responseOffset(), whole, 0, head);
                ch.beginReply(whole.length, shared, head);
            }
            final CompletableFuture<ByteBuffer> first = CompletableFuture.supplyAsync(() -> readQuietly(loop, whole.length));
            final CompletableFuture<ByteBuffer> next = CompletableFuture.supplyAsync(() -> readQuietly(other, whole.length));
            final long deadlineNs = System.nanoTime() + STEP_DEADLINE_NS;
            int a = FrameChannel.WRITING;
            int b = FrameChannel.WRITING;
            while (a == FrameChannel.WRITING || b == FrameChannel.WRITING) {
                Await.check(deadlineNs, "both replies to drain");
                a = a == FrameChannel.WRITING ? frames.writeStep() : a;
                b = b == FrameChannel.WRITING ? second.writeStep() : b;
            }
            assertEquals(FrameChannel.IDLE, a);
            assertEquals(FrameChannel.IDLE, b);
            for (final ByteBuffer got : new ByteBuffer[] {first.get(10, TimeUnit.SECONDS), next.get(10, TimeUnit.SECONDS)}) {
                assertEquals(whole.length, got.getInt());
                assertArrayEquals(whole, rest(got));
            }
            final byte[] left = new byte[whole.length - head];
            shared.get(head, left);
            assertArrayEquals(java.util.Arrays.copyOfRange(whole, head, whole.length), left, "the shared body is read only");
            loop.sendFrame(pattern(20, 4)); // the connection goes on with plain replies
            assertEquals(FrameChannel.FRAME_READY, readUntilDone());
            reply(pattern(56, 3));
            assertEquals(FrameChannel.IDLE, frames.writeStep());
            final ByteBuffer plain = loop.readExactly(4 + 56);
            assertEquals(56, plain.getInt());
            assertArrayEquals(pattern(56, 3), rest(plain));
        }
    }

    private static ByteBuffer readQuietly(final Loopback loop, final int length) {
        try {
            return loop.readExactly(4 + length);
        } catch (final Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Timeout(10)
    void refusesRepliesOutsideSixteenBytesToCapacityAndRepliesWithoutAFrame() throws Exception {
        assertThrows(IllegalStateException.class, () -> frames.beginReply(16), "no frame held");
        loop.sendFrame(pattern(16, 1));
        assertEquals(FrameChannel.FRAME_READY, frames.readStep());
        assertThrows(IllegalArgumentException.class, () -> frames.beginReply(15));
        assertThrows(IllegalArgumentException.class, () -> frames.beginReply(AgentAbi.MAX_MESSAGE_BYTES + 1));
    }

    @Test
    @Timeout(10)
    void reusesItsBuffersForTheNextConnectionAfterDisconnect() throws Exception {
        frames.disconnect();
        assertEquals(FrameChannel.CLOSE_LOCAL, frames.closeReason());
        assertClosedWithoutAByte(loop);

        try (Loopback next = reconnect()) {
            frames.attach(next.server);
            next.sendFrame(pattern(24, 6));
            assertEquals(FrameChannel.FRAME_READY, frames.readStep());
            assertArrayEquals(pattern(24, 6), read(frames.requestStore(), frames.requestOffset(), 24));
        }
    }

    /**
     * The client's next read ends the connection without data: EOF, or a reset when the service
     * closed with our unread bytes still queued (what Linux does for such a close).
     */
    static void assertClosedWithoutAByte(final Loopback loop) throws Exception {
        final ByteBuffer b = ByteBuffer.allocate(1);
        try {
            assertEquals(-1, loop.client.read(b), "EOF, and not a single byte before it");
        } catch (final SocketException reset) {
            assertTrue(reset.getMessage().contains("reset"), reset.toString());
        }
        assertEquals(0, b.position(), "no byte written back");
    }

    private Loopback reconnect() throws Exception {
        loop.close();
        loop = Loopback.open(dir);
        return loop;
    }

    private int readUntilDone() {
        return readUntilDone(frames);
    }

    private static int readUntilDone(final FrameChannel frames) {
        final long deadlineNs = System.nanoTime() + STEP_DEADLINE_NS;
        int status;
        while ((status = frames.readStep()) == FrameChannel.NEED_MORE) {
            Await.check(deadlineNs, "a whole frame");
            Thread.onSpinWait();
        }
        return status;
    }

    private void reply(final byte[] payload) {
        frames.responseStore().write(frames.responseOffset(), payload, 0, payload.length);
        frames.beginReply(payload.length);
    }

    static byte[] pattern(final int length, final int seed) {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    static byte[] read(final BytesStore<?, ?> store, final long at, final int length) {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = store.readByte(at + i);
        }
        return b;
    }

    private static byte[] rest(final ByteBuffer b) {
        final byte[] r = new byte[b.remaining()];
        b.get(r);
        return r;
    }
}
