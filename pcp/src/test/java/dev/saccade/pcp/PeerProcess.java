package dev.saccade.pcp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Another process talking to a PCP socket: python3 connects, sends one line, and prints each of
 * the next {@code count} lines it reads (fewer when the service closes the connection first,
 * then {@code EOF}). Its pid is not the test JVM's, so PCP sees it as another peer process; it is
 * a child of the test JVM, so it descends from it.
 */
final class PeerProcess implements AutoCloseable {
    private static final String SCRIPT = String.join("\n",
        "import socket, sys",
        "s = socket.socket(socket.AF_UNIX)",
        "s.connect(sys.argv[1])",
        "s.sendall(sys.argv[2].encode() + b'\\n')",
        "f = s.makefile('rb')",
        "for _ in range(int(sys.argv[3])):",
        "    line = f.readline()",
        "    if not line:",
        "        print('EOF', flush=True)",
        "        break",
        "    print(line.decode().strip(), flush=True)");

    final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private PeerProcess(final Process process) {
        this.process = process;
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (final IOException ignore) {
                // The process ended: no more lines.
            }
            lines.add("EOF");
        }, "pcp-peer-process-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts python3 sending {@code line} to {@code socket} and printing {@code count} answers. */
    static PeerProcess send(final Path socket, final String line, final int count) throws IOException {
        return new PeerProcess(new ProcessBuilder("python3", "-c", SCRIPT, socket.toString(), line, Integer.toString(count))
            .redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    /** The next line it printed: a JSON message, or {@code EOF} once the connection or the process ended. */
    String next(final Duration timeout) throws InterruptedException {
        final String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new AssertionError("the peer process printed nothing within " + timeout);
        }
        return line;
    }

    /** The next line as a JSON object; fails on {@code EOF}. */
    @SuppressWarnings("unchecked")
    Map<String, Object> message(final Duration timeout) throws Exception {
        final String line = next(timeout);
        if ("EOF".equals(line)) {
            throw new IOException("the service closed the peer process's connection");
        }
        return (Map<String, Object>) JsonTree.parse(line);
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's to see: close() does not throw it
        }
    }
}
