package dev.saccade.ipc.link;

import dev.saccade.ipc.link.LinkRefusedException.Reason;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * The one exchange on a lifeline, right after connect; afterwards neither side writes a byte,
 * and end-of-file is the only event. Both messages are 40 bytes, little-endian:
 * <pre>
 *   0            4            8                16                         32               36          40
 *   +------------+------------+----------------+--------------------------+----------------+-----------+
 *   | magic u32  | kind u32   | pid u64        | session_nonce [16]       | layout_version | reserved  |
 *   | "SLL1"     | 1 HELLO    | sender's pid   |                          | u32            | u32 (0)   |
 *   |            | 2 WELCOME  |                |                          |                |           |
 *   +------------+------------+----------------+--------------------------+----------------+-----------+
 * </pre>
 * The helper sends HELLO only after it checked the owner's peer credentials (uid ours, pid the
 * expected owner's), so the nonce is only ever shown to the owner. The owner answers WELCOME
 * only if the helper's peer uid is ours, its peer pid is the helper it launched (when known),
 * HELLO's pid equals that peer pid and the nonce matches; otherwise it closes the connection
 * without a byte, and the helper reads end-of-file instead of WELCOME.
 */
final class LifelineHandshake {
    /** "SLL1" as a little-endian u32. */
    static final int MAGIC = 0x314C_4C53;
    static final int HELLO = 1;
    static final int WELCOME = 2;
    static final int MAGIC_OFFSET = 0;
    static final int KIND_OFFSET = MAGIC_OFFSET + Integer.BYTES;
    static final int PID_OFFSET = KIND_OFFSET + Integer.BYTES;
    static final int NONCE_OFFSET = PID_OFFSET + Long.BYTES;
    static final int LAYOUT_VERSION_OFFSET = NONCE_OFFSET + SessionNonce.LENGTH;
    static final int RESERVED_OFFSET = LAYOUT_VERSION_OFFSET + Integer.BYTES;
    static final int LENGTH = RESERVED_OFFSET + Integer.BYTES;

    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private LifelineHandshake() {
    }

    static ByteBuffer encode(final int kind, final long pid, final byte[] nonce) {
        final ByteBuffer b = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC_OFFSET, MAGIC).putInt(KIND_OFFSET, kind).putLong(PID_OFFSET, pid);
        b.put(NONCE_OFFSET, nonce, 0, SessionNonce.LENGTH);
        b.putInt(LAYOUT_VERSION_OFFSET, LinkFileDescriptor.LAYOUT_VERSION).putInt(RESERVED_OFFSET, 0);
        return b;
    }

    /**
     * Checks a received message: null if it is {@code kind} from {@code peerPid} with
     * {@code nonce}, else what is wrong.
     */
    static String check(final ByteBuffer m, final int kind, final long peerPid, final byte[] nonce) {
        m.order(ByteOrder.LITTLE_ENDIAN);
        if (m.getInt(MAGIC_OFFSET) != MAGIC || m.getInt(KIND_OFFSET) != kind) {
            return "not a lifeline " + (kind == HELLO ? "HELLO" : "WELCOME");
        }
        if (m.getInt(LAYOUT_VERSION_OFFSET) != LinkFileDescriptor.LAYOUT_VERSION || m.getInt(RESERVED_OFFSET) != 0) {
            return "layout version " + m.getInt(LAYOUT_VERSION_OFFSET) + " is not ours";
        }
        if (m.getLong(PID_OFFSET) != peerPid) {
            return "pid " + m.getLong(PID_OFFSET) + " differs from the peer's credentials (" + peerPid + ")";
        }
        final byte[] actual = new byte[SessionNonce.LENGTH];
        m.get(NONCE_OFFSET, actual);
        if (!SessionNonce.matches(nonce, actual)) {
            return "session nonce mismatch";
        }
        return null;
    }

    /** Writes all of {@code b} to a non-blocking channel before {@code deadlineNs}. */
    static void writeFully(final AFUNIXSocketChannel channel, final ByteBuffer b, final long deadlineNs)
        throws IOException {
        b.clear();
        while (b.hasRemaining()) {
            final int n;
            try {
                n = channel.write(b);
            } catch (final IOException e) {
                throw refused("the lifeline peer closed the connection while we wrote the handshake (it refused us): ", e);
            }
            if (n == 0) {
                pollOrTimeOut(deadlineNs, "writing the lifeline handshake");
            }
        }
    }

    /**
     * Reads one message from a non-blocking channel before {@code deadlineNs}.
     *
     * @throws LinkRefusedException (HANDSHAKE) at end-of-file: the other side closed, refusing us.
     */
    static ByteBuffer readMessage(final AFUNIXSocketChannel channel, final long deadlineNs) throws IOException {
        final ByteBuffer b = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            final int n;
            try {
                n = channel.read(b);
            } catch (final IOException e) {
                throw refused("the lifeline peer reset the connection (it refused us): ", e);
            }
            if (n < 0) {
                throw new LinkRefusedException(Reason.HANDSHAKE, "the lifeline peer closed the connection after "
                    + b.position() + " of " + LENGTH + " handshake bytes (it refused us)");
            }
            if (n == 0) {
                pollOrTimeOut(deadlineNs, "reading the lifeline handshake");
            }
        }
        return b;
    }

    /** A failed read or write mid-handshake (reset, broken pipe, which junixsocket may wrap): a refusal. */
    private static LinkRefusedException refused(final String what, final IOException cause) {
        final LinkRefusedException e = new LinkRefusedException(Reason.HANDSHAKE, what + cause.getMessage());
        e.initCause(cause);
        return e;
    }

    private static void pollOrTimeOut(final long deadlineNs, final String what) throws SocketTimeoutException {
        if (System.nanoTime() - deadlineNs >= 0) {
            throw new SocketTimeoutException("timed out " + what);
        }
        LockSupport.parkNanos(POLL_NS);
    }
}
