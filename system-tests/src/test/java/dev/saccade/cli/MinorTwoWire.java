package dev.saccade.cli;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of agent API 0x00010002 written only from upstream Saccade's public header
 * ({@code saccade_agent.h}): its own byte layouts and constants, none of this repository's
 * encoders, flyweights or names, so a test that passes with it says that an outside client of
 * that version works against this service.
 */
final class MinorTwoWire implements AutoCloseable {
    static final int VERSION = 0x00010002;
    // message kinds
    static final int OBSERVE = 1;
    static final int ACTION_BATCH = 5;
    static final int HELLO = 7;
    // capabilities: observe, pointer, keyboard, window
    static final int CAPS = 0x1 | 0x2 | 0x4 | 0x10;
    static final int SCOPE_WINDOW = 5;
    static final int SOURCE_FUSED = 4;
    static final int LATEST_VALID = 1;
    // target flags
    static final int T_BACKGROUND_ACTIONABLE = 1 << 7;
    static final int T_ACTIVATION_REQUIRED = 1 << 8;
    static final int T_BACKGROUND_UNSUPPORTED = 1 << 9;
    static final int ROLE_BUTTON = 1;
    // actions
    static final int CLICK = 3;
    static final int INVOKE = 12;
    static final int A_EXPLICIT_POINTS = 1;
    static final int A_ALLOW_ACTIVATION = 1 << 2;
    static final int A_EXPLICIT_WINDOW = 1 << 3;
    static final int R_BACKGROUND_ACCESSIBILITY = 1;
    static final int R_WOULD_ACTIVATE = 1 << 1;
    static final int R_WINDOW_ACTIVATED = 1 << 2;
    static final int BUTTON_LEFT = 1;
    // preconditions: generation, process, window
    static final int P_GENERATION_PROCESS_WINDOW = 0x1 | 0x2 | 0x4;
    static final int ERROR_ACTIVATION_REQUIRED = -16;

    private final SocketChannel channel;
    private long nextRequest = 1;

    private MinorTwoWire(final SocketChannel channel) {
        this.channel = channel;
    }

    /** Connects and says hello as a 0x00010002 client; fails unless the service grants what it asked. */
    static MinorTwoWire open(final Path socket) throws IOException {
        final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        final MinorTwoWire wire = new MinorTwoWire(channel);
        final ByteBuffer hello = message(48, HELLO);
        hello.putLong(16, wire.nextRequest++).putInt(24, CAPS).putInt(28, 0);
        final ByteBuffer reply = wire.exchange(hello);
        if (reply.getInt(4) != VERSION || reply.getInt(8) != 8 || reply.getInt(24) != 0 || reply.getInt(32) != CAPS) {
            channel.close();
            throw new IOException("hello refused: version 0x" + Integer.toHexString(reply.getInt(4))
                + " result " + reply.getInt(24) + " granted 0x" + Integer.toHexString(reply.getInt(32)));
        }
        return wire;
    }

    /** One target of a completion, as the header lays it out. */
    record Target(long id, long window, int x, int y, int width, int height, int safeX, int safeY, int capabilities,
                  int flags, int role, String text) {
        int dispositions() {
            return flags & (T_BACKGROUND_ACTIONABLE | T_ACTIVATION_REQUIRED | T_BACKGROUND_UNSUPPORTED);
        }
    }

    /** An observe completion: its result, generation fields and targets. */
    record Observed(int version, int result, long generation, long processId, long windowId, long displayId,
                    long transformEpoch, long permissionEpoch, long scopeId, List<Target> targets) {
    }

    /** One action row. */
    record Row(int kind, int result, int flags) {
    }

    /** An action completion: its result and rows. */
    record Acted(int version, int result, List<Row> rows) {
    }

    /** Observes window {@code windowId} only (SCOPE_WINDOW), the fused scene, the latest generation. */
    Observed observeWindow(final long windowId) throws IOException {
        final ByteBuffer m = message(96, OBSERVE);
        m.putLong(16, nextRequest++);
        m.putInt(24, SCOPE_WINDOW).putInt(28, SOURCE_FUSED).putLong(32, windowId); // scope, rect 0
        m.putInt(56, LATEST_VALID); // freshness: flags 0, after 0, timeout 0
        m.putInt(80, 0x1).putInt(84, 10_000).putInt(88, 88).putInt(92, 1 << 20);
        final ByteBuffer c = exchange(m);
        final List<Target> targets = new ArrayList<>();
        final int count = c.getInt(36);
        final int stride = c.getInt(40);
        final int first = c.getInt(44);
        for (int i = 0; i < count; i++) {
            final int at = first + i * stride;
            final int textAt = c.getInt(at + 72);
            final int textSize = c.getInt(at + 76);
            final byte[] text = new byte[textSize];
            c.get(textAt, text);
            targets.add(new Target(c.getLong(at), c.getLong(at + 16), c.getInt(at + 32), c.getInt(at + 36),
                c.getInt(at + 40), c.getInt(at + 44), c.getInt(at + 48), c.getInt(at + 52), c.getInt(at + 56),
                c.getInt(at + 60), Short.toUnsignedInt(c.getShort(at + 64)), new String(text, StandardCharsets.UTF_8)));
        }
        return new Observed(c.getInt(4), c.getInt(24), c.getLong(56), c.getLong(56 + 32), c.getLong(56 + 40),
            c.getLong(56 + 48), c.getLong(56 + 56), c.getLong(56 + 72), c.getLong(136 + 8), List.copyOf(targets));
    }

    /**
     * One action on {@code target}, with its window named by the preconditions of
     * {@code observed} (generation, process, window), STOP_ON_FAILURE, a 10 s deadline.
     */
    Acted act(final Observed observed, final int kind, final int flags, final Target target) throws IOException {
        final int total = 136 + 80;
        final ByteBuffer m = message(136, ACTION_BATCH);
        final ByteBuffer whole = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN).put(m.array());
        whole.putLong(16, nextRequest++).putInt(24, CAPS).putInt(28, 1).putLong(32, System.nanoTime() + 10_000_000_000L);
        whole.putInt(40, P_GENERATION_PROCESS_WINDOW).putLong(40 + 16, observed.generation())
            .putLong(40 + 24, observed.processId()).putLong(40 + 32, observed.windowId());
        whole.putInt(112, 1).putInt(116, 80).putInt(120, 136).putInt(124, total).putInt(128, 0).putInt(132, total);
        whole.putInt(136, kind).putInt(140, flags).putLong(144, target.id());
        whole.putInt(136 + 24, target.safeX()).putInt(136 + 28, target.safeY()); // the point, for EXPLICIT_POINTS
        whole.putInt(136 + 40, BUTTON_LEFT).putInt(136 + 52, 1);
        final ByteBuffer c = exchange(whole);
        final List<Row> rows = new ArrayList<>();
        for (int i = 0; i < c.getInt(40); i++) {
            final int at = c.getInt(48) + i * c.getInt(44);
            rows.add(new Row(c.getInt(at + 4), c.getInt(at + 8), c.getInt(at + 40)));
        }
        return new Acted(c.getInt(4), c.getInt(24), List.copyOf(rows));
    }

    private static ByteBuffer message(final int size, final int kind) {
        final ByteBuffer m = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        m.putInt(0, size).putInt(4, VERSION).putInt(8, kind).putInt(12, 0);
        return m;
    }

    private ByteBuffer exchange(final ByteBuffer message) throws IOException {
        final ByteBuffer frame = ByteBuffer.allocate(4 + message.capacity()).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(message.capacity()).put(message.array()).flip();
        while (frame.hasRemaining()) {
            channel.write(frame);
        }
        final ByteBuffer length = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        readFully(length);
        final ByteBuffer reply = ByteBuffer.allocate(length.getInt(0)).order(ByteOrder.LITTLE_ENDIAN);
        readFully(reply);
        return reply;
    }

    private void readFully(final ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new IOException("the service closed the connection");
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
