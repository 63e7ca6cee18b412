package dev.saccade.owner;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/** A raw client on the real endpoint: 4-byte little-endian length, then the frame. */
final class SocketWire implements Wire {
    private final AFUNIXSocket socket;
    private final OutputStream out;
    private final DataInputStream in;

    SocketWire(final Path path) throws IOException {
        socket = AFUNIXSocket.connectTo(AFUNIXSocketAddress.of(path));
        socket.setSoTimeout(20_000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    static byte[] prefix(final int length) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(length).array();
    }

    void soTimeout(final int ms) throws IOException {
        socket.setSoTimeout(ms);
    }

    void sendRaw(final byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    InputStream input() {
        return in;
    }

    @Override
    public byte[] exchange(final byte[] frame) throws IOException {
        try {
            out.write(prefix(frame.length));
            out.write(frame);
            out.flush();
        } catch (final SocketException e) {
            return null; // the service closed first
        }
        return readReply();
    }

    /** The next reply, or null if the service closed the connection. */
    byte[] readReply() throws IOException {
        final byte[] len = new byte[4];
        try {
            in.readFully(len);
        } catch (final EOFException | SocketException e) {
            return null;
        }
        final int n = ByteBuffer.wrap(len).order(ByteOrder.LITTLE_ENDIAN).getInt();
        final byte[] reply = new byte[n];
        in.readFully(reply);
        return reply;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
