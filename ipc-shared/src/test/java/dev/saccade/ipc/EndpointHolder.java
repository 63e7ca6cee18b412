package dev.saccade.ipc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * Child-process main: binds an endpoint, prints {@code bound <dev> <ino>}, then accepts and
 * closes connections, printing {@code accepted} for each. Halts when its stdin reaches EOF, so
 * it dies with the test JVM even if nobody kills it.
 */
public final class EndpointHolder {
    private EndpointHolder() {
    }

    public static void main(final String[] args) throws IOException {
        final Path path = Path.of(args[0]);
        final Thread lifeline = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // Nothing is ever sent; EOF means the parent is gone.
                }
            } catch (final IOException ignore) {
                // Same as EOF: the parent's end of the pipe is gone.
            }
            Runtime.getRuntime().halt(3);
        }, "lifeline");
        lifeline.setDaemon(true);
        lifeline.start();
        try (EndpointListener listener = EndpointListener.bind(path, Duration.ZERO)) {
            System.out.println("bound " + listener.device() + " " + listener.inode());
            System.out.flush();
            while (true) {
                final AFUNIXSocketChannel channel = listener.acceptNonBlocking();
                if (channel == null) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    continue;
                }
                System.out.println("accepted");
                System.out.flush();
                channel.close();
            }
        }
    }
}
