package dev.saccade.ipc;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * Reads and writes a connected junixsocket channel through JDK {@link FileChannel}s on its
 * descriptor, so the owner's steady state allocates nothing.
 *
 * <p>Why: junixsocket 2.11.1 allocates 16 bytes on every {@code AFSocketChannel.read} and
 * {@code write} (a capturing lambda per call, in {@code AFSocketImpl.read/write} and the
 * interruptible-channel epilogue; measured with {@code ThreadMXBean}, not removed by escape
 * analysis), including each read that finds no data. A {@code FileChannel} over the same
 * descriptor is a bare {@code read(2)}/{@code write(2)} into a direct buffer: zero bytes. The
 * descriptor keeps junixsocket's O_NONBLOCK, so an empty read returns 0 (EAGAIN) and a full
 * send buffer writes 0. SIGPIPE is ignored by the JVM, so a closed peer is an IOException.
 *
 * <p>Ownership: junixsocket's channel owns the descriptor. The file streams are never closed
 * (that would close the descriptor behind junixsocket's back); neither they nor their channels
 * register a cleaner when built from a {@link FileDescriptor}, so garbage collection never
 * closes it either. junixsocket's close sets the shared descriptor to -1, after which these
 * channels fail with EBADF instead of touching a reused descriptor number.
 */
final class SocketDescriptorChannel implements ByteChannel, GatheringByteChannel {
    private final AFUNIXSocketChannel socket;
    private final FileChannel in;
    private final FileChannel out;

    SocketDescriptorChannel(final AFUNIXSocketChannel socket) throws IOException {
        this.socket = socket;
        socket.configureBlocking(false);
        final FileDescriptor fd = socket.getFileDescriptor();
        this.in = new FileInputStream(fd).getChannel();
        this.out = new FileOutputStream(fd).getChannel();
    }

    @Override
    public int read(final ByteBuffer dst) throws IOException {
        return in.read(dst);
    }

    @Override
    public int write(final ByteBuffer src) throws IOException {
        return out.write(src);
    }

    /** One {@code writev(2)}: a reply's header and its shared body leave in one call. */
    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
        return out.write(srcs, offset, length);
    }

    @Override
    public long write(final ByteBuffer[] srcs) throws IOException {
        return out.write(srcs);
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
