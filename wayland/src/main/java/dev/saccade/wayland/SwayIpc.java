package dev.saccade.wayland;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * sway's (and i3's) IPC: one Unix socket, each message "i3-ipc", a native-endian u32 payload
 * length and u32 type, then the JSON payload. Types used: RUN_COMMAND 0, GET_OUTPUTS 3,
 * GET_TREE 4, GET_VERSION 7, GET_SEATS 101. Replies are returned as text; parsing them is the
 * caller's business. One request at a time (synchronized).
 */
public final class SwayIpc implements AutoCloseable {
    public static final int RUN_COMMAND = 0;
    public static final int SUBSCRIBE = 2;
    public static final int GET_OUTPUTS = 3;
    public static final int GET_TREE = 4;
    public static final int GET_VERSION = 7;
    public static final int GET_SEATS = 101;
    private static final byte[] MAGIC = "i3-ipc".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER = 14;
    /** A tree of a busy desktop is a few hundred KB; anything beyond this is refused. */
    private static final int MAX_REPLY = 64 << 20;

    private final SocketChannel channel;
    private final ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.nativeOrder());

    private SwayIpc(final SocketChannel channel) {
        this.channel = channel;
    }

    public static SwayIpc connect(final Path socket) throws IOException {
        final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
        } catch (final IOException e) {
            channel.close();
            throw e;
        }
        return new SwayIpc(channel);
    }

    /** SWAYSOCK (or I3SOCK) of this process's environment, or null. */
    public static Path socketFromEnvironment() {
        final String s = System.getenv("SWAYSOCK");
        if (s != null && !s.isEmpty()) {
            return Path.of(s);
        }
        final String i3 = System.getenv("I3SOCK");
        return i3 == null || i3.isEmpty() ? null : Path.of(i3);
    }

    /**
     * sway's IPC socket for a compositor reached at {@code waylandDisplay}: SWAYSOCK when set,
     * else the {@code sway-ipc.*.sock} beside the Wayland socket (sway makes both in its
     * XDG_RUNTIME_DIR); null when there is none (not sway, or not ours to see).
     */
    public static Path locate(final String waylandDisplay) {
        final Path fromEnvironment = socketFromEnvironment();
        if (fromEnvironment != null) {
            return fromEnvironment;
        }
        final Path display = waylandDisplay == null ? null : Path.of(waylandDisplay);
        Path dir = display != null && display.isAbsolute() ? display.getParent() : null;
        if (dir == null && System.getenv("XDG_RUNTIME_DIR") != null) {
            dir = Path.of(System.getenv("XDG_RUNTIME_DIR"));
        }
        if (dir == null) {
            return null;
        }
        try (java.nio.file.DirectoryStream<Path> entries = java.nio.file.Files.newDirectoryStream(dir, "sway-ipc.*.sock")) {
            for (final Path entry : entries) {
                return entry;
            }
        } catch (final IOException e) {
            return null;
        }
        return null;
    }

    /** Sends one message and returns the reply's payload. */
    public synchronized String request(final int type, final String payload) throws IOException {
        final byte[] body = payload.getBytes(StandardCharsets.UTF_8);
        final ByteBuffer out = ByteBuffer.allocate(HEADER + body.length).order(ByteOrder.nativeOrder());
        out.put(MAGIC).putInt(body.length).putInt(type).put(body).flip();
        while (out.hasRemaining()) {
            channel.write(out);
        }
        return readReply(type);
    }

    /**
     * After {@code request(SUBSCRIBE, "[\"window\", ...]")}: blocks for the next event and returns
     * its type (with the event bit 0x80000000 set); the payload is skipped.
     */
    public int nextEvent() throws IOException {
        return readMessage(null);
    }

    private String readReply(final int type) throws IOException {
        final StringBuilder payload = new StringBuilder();
        final int replyType = readMessage(payload);
        if (replyType != type) {
            throw new IOException("bad i3-ipc reply: type " + replyType + " for a request of type " + type);
        }
        return payload.toString();
    }

    private int readMessage(final StringBuilder payload) throws IOException {
        header.clear();
        readFully(header);
        header.flip();
        for (final byte b : MAGIC) {
            if (header.get() != b) {
                throw new IOException("not an i3-ipc reply");
            }
        }
        final int length = header.getInt();
        final int replyType = header.getInt();
        if (length < 0 || length > MAX_REPLY) {
            throw new IOException("bad i3-ipc message: type " + replyType + ", length " + length);
        }
        final ByteBuffer reply = ByteBuffer.allocate(length);
        readFully(reply);
        if (payload != null) {
            payload.append(new String(reply.array(), StandardCharsets.UTF_8));
        }
        return replyType;
    }

    private void readFully(final ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new IOException("sway closed its IPC socket");
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
