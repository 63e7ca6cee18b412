package dev.saccade.supervisor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.newsclub.net.unix.AFUNIXDatagramChannel;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * systemd's {@code Type=notify} readiness (sd_notify(3)): one datagram {@code READY=1} to the
 * Unix datagram socket named by {@code $NOTIFY_SOCKET}, a path or, with a leading '@', a name in
 * the abstract namespace. Without the variable there is no one to tell and nothing is sent.
 */
final class SystemdNotifier {
    static final String NOTIFY_SOCKET = "NOTIFY_SOCKET";
    static final String READY = "READY=1";

    private SystemdNotifier() {
    }

    /**
     * Sends {@code message} to {@code notifySocket}; returns false when it is null or empty.
     *
     * @throws IOException if the socket cannot be reached.
     */
    static boolean send(final String notifySocket, final String message) throws IOException {
        if (notifySocket == null || notifySocket.isEmpty()) {
            return false;
        }
        final AFUNIXSocketAddress address = notifySocket.charAt(0) == '@'
            ? AFUNIXSocketAddress.inAbstractNamespace(notifySocket.substring(1))
            : AFUNIXSocketAddress.of(Path.of(notifySocket));
        final byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        try (AFUNIXDatagramChannel channel = AFUNIXDatagramChannel.open()) {
            channel.send(ByteBuffer.wrap(bytes), address);
        }
        return true;
    }
}
