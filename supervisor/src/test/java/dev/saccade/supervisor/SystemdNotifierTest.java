package dev.saccade.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFUNIXDatagramChannel;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/** sd_notify's wire: a datagram on a real Unix datagram socket we bind, as systemd does. */
class SystemdNotifierTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(10)
    void shouldSendReadyToAPathSocket() throws Exception {
        final Path path = dir.resolve("notify");
        try (AFUNIXDatagramChannel systemd = AFUNIXDatagramChannel.open()) {
            systemd.bind(AFUNIXSocketAddress.of(path));
            assertTrue(SystemdNotifier.send(path.toString(), SystemdNotifier.READY));
            final ByteBuffer packet = ByteBuffer.allocate(64);
            systemd.receive(packet); // blocking: the datagram is already queued
            packet.flip();
            assertEquals("READY=1", StandardCharsets.UTF_8.decode(packet).toString());
        }
    }

    @Test
    @Timeout(10)
    void shouldSendReadyToAnAbstractSocket() throws Exception {
        final String name = "saccade-notify-test-" + ProcessHandle.current().pid();
        try (AFUNIXDatagramChannel systemd = AFUNIXDatagramChannel.open()) {
            systemd.bind(AFUNIXSocketAddress.inAbstractNamespace(name));
            assertTrue(SystemdNotifier.send("@" + name, SystemdNotifier.READY));
            final ByteBuffer packet = ByteBuffer.allocate(64);
            systemd.receive(packet); // blocking: the datagram is already queued
            packet.flip();
            assertEquals("READY=1", StandardCharsets.UTF_8.decode(packet).toString());
        }
    }

    @Test
    void shouldSendNothingWithoutTheVariable() throws Exception {
        assertFalse(SystemdNotifier.send(null, SystemdNotifier.READY));
        assertFalse(SystemdNotifier.send("", SystemdNotifier.READY));
    }
}
