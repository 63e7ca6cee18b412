package dev.saccade.cli;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;
import java.util.Set;

/**
 * Initialises, on a thread of its own, what a client command needs only after picocli has built
 * its model and parsed the arguments: Chronicle Bytes (its {@code Jvm} class starts SLF4J, reads
 * the JVM's arguments through the management beans, searches the class path for a
 * {@code system.properties} and starts its resource releaser: 35–60 ms of a one-shot run) and
 * the JDK's AF_UNIX channels (a {@code SecureRandom} and the security providers). A one-shot
 * run's two halves then overlap on a second core instead of running one after the other (issue
 * 16: one-shot commands within 250 ms); the main thread, when it gets there, finds the classes
 * initialised or waits for the rest of their initialisation. Neither touches a class the main
 * thread initialises on its way, so the two cannot wait for each other.
 */
final class ClientWarmUp {
    /** The commands that connect to the service: the rest would only pay for the thread. */
    private static final Set<String> CLIENTS = Set.of("observe", "query", "wait", "act", "batch", "mcp");

    private ClientWarmUp() {
    }

    /** Starts the warm-up when {@code args} run a client command. */
    static void startFor(final String[] args) {
        if (args.length == 0 || !CLIENTS.contains(args[0])) {
            return;
        }
        final Thread thread = new Thread(ClientWarmUp::run, "saccade-client-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    private static void run() {
        try {
            Class.forName("net.openhft.chronicle.core.Jvm", true, ClientWarmUp.class.getClassLoader());
            SocketChannel.open(StandardProtocolFamily.UNIX).close();
        } catch (final ClassNotFoundException | IOException | LinkageError | RuntimeException e) {
            // the command meets the same failure on its own path and reports it there
        }
    }
}
