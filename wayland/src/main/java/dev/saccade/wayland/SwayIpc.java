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

    /** Sends one message and returns the reply's payload. */
    public synchronized String request(final int type, final String payload) throws IOException {
        final byte[] body = payload.getBytes(StandardCharsets.UTF_8);
        final ByteBuffer out = ByteBuffer.allocate(HEADER + body.length).order(ByteOrder.nativeOrder());
        out.put(MAGIC).putInt(body.length).putInt(type).put(body).flip();
        while (out.hasRemaining()) {
            channel.write(out);
        }
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
        if (length < 0 || length > MAX_REPLY || replyType != type) {
            throw new IOException("bad i3-ipc reply: type " + replyType + ", length " + length);
        }
        final ByteBuffer reply = ByteBuffer.allocate(length);
        readFully(reply);
        return new String(reply.array(), StandardCharsets.UTF_8);
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
