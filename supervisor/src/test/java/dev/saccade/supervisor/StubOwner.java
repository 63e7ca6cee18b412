package dev.saccade.supervisor;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.ListenerHandoff;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * Stands in for {@code saccade owner run} in SupervisorTest: speaks the owner's side of the
 * supervisor link exactly as the real owner does (ListenerHandoff), and answers each client
 * connection with its pid and a line feed. Starts in a fraction of the real owner's time and
 * needs no display, so the conductor's logic is tested fast; the real owner is in cli's
 * SupervisorIT.
 */
public final class StubOwner {
    private StubOwner() {
    }

    public static void main(final String[] args) throws Exception {
        Path link = null;
        Path endpoint = null;
        Path runtime = null;
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("--supervisor-link")) {
                link = Path.of(args[i + 1]);
            } else if (args[i].equals("--endpoint")) {
                endpoint = Path.of(args[i + 1]);
            } else if (args[i].equals("--runtime-dir")) {
                runtime = Path.of(args[i + 1]);
            }
        }
        final ListenerHandoff handoff = ListenerHandoff.connect(link, System.getenv(ListenerHandoff.NONCE_ENVIRONMENT_VARIABLE));
        // As the real owner: whether its input helper is attached, from the hello on; here the file
        // INPUT_UP_FILE in the runtime directory stands for an attached helper.
        final Path inputUp = runtime.resolve(INPUT_UP_FILE);
        boolean up = java.nio.file.Files.exists(inputUp);
        handoff.input(up);
        final boolean initial = up;
        final Thread input = new Thread(() -> follow(handoff, inputUp, initial), "stub-input");
        input.setDaemon(true);
        input.start();
        final long generation = System.currentTimeMillis() * 1000;
        handoff.ready(generation);
        final EndpointListener listener = handoff.awaitListener(endpoint);
        final Thread server = new Thread(() -> serve(listener), "stub-serve");
        server.setDaemon(true);
        server.start();
        handoff.serving();
        for (String line = handoff.nextCommand(); line != null; line = handoff.nextCommand()) {
            if (line.equals(ListenerHandoff.PING)) {
                handoff.pong();
            } else if (line.equals(ListenerHandoff.DRAIN)) {
                running = false;
                server.join();
                handoff.drained(generation);
                listener.close();
                System.exit(0);
            }
        }
        System.exit(0); // the supervisor went away
    }

    private static volatile boolean running = true;
    /** Present in the runtime directory: the stub says its input helper is attached. */
    static final String INPUT_UP_FILE = "stub-input-up";

    private static void follow(final ListenerHandoff handoff, final Path inputUp, final boolean initial) {
        boolean up = initial;
        try {
            while (true) {
                final boolean now = java.nio.file.Files.exists(inputUp);
                if (now != up) {
                    handoff.input(now);
                    up = now;
                }
                Thread.sleep(20); // a stand-in's poll of a file, not a test's synchronisation
            }
        } catch (final Exception e) {
            // the supervisor went away
        }
    }

    private static void serve(final EndpointListener listener) {
        final byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
        try (Selector selector = listener.serverChannel().provider().openSelector()) {
            listener.serverChannel().register(selector, SelectionKey.OP_ACCEPT);
            while (running) {
                selector.select(20);
                selector.selectedKeys().clear();
                for (AFUNIXSocketChannel c = listener.acceptNonBlocking(); c != null && running; c = listener.acceptNonBlocking()) {
                    c.configureBlocking(true);
                    c.write(ByteBuffer.wrap(pid));
                    c.close();
                }
            }
        } catch (final Exception e) {
            e.printStackTrace();
        }
    }
}
