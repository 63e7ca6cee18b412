package dev.saccade.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/**
 * A web page served on 127.0.0.1 whose paragraph's text changes to {@code tick N} every 100 ms
 * ({@code textContent}, as frameworks replace a text), and which posts back once a second when
 * it made each change ({@code performance.timeOrigin + performance.now()}, epoch milliseconds
 * on the machine's clock): what {@link WebDomBench} times the scene against. One run's stamps
 * are kept under the run name the page's URL carries.
 */
final class CounterPage implements AutoCloseable {
    static final String PREFIX = "tick ";
    private static final String PAGE = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>Saccade counter</title></head>
        <body><h1>Counter</h1><p id="counter">tick 0</p><p>A paragraph that stays the same.</p>
        <script>
        const run = new URLSearchParams(location.search).get('run');
        const el = document.getElementById('counter');
        const stamps = [];
        let k = 0;
        setInterval(() => {
          k++;
          el.textContent = 'tick ' + k;
          stamps.push(k + ' ' + (performance.timeOrigin + performance.now()).toFixed(2));
        }, 100);
        setInterval(() => {
          if (stamps.length) {
            fetch('/stamps?run=' + run, {method: 'POST', body: stamps.splice(0).join('\\n')});
          }
        }, 1000);
        </script></body></html>
        """;

    private final HttpServer server;
    /** Per run: counter value to the epoch milliseconds the page set it. */
    private final Map<String, Map<Integer, Double>> stamps = new ConcurrentHashMap<>();

    private CounterPage(final HttpServer server) {
        this.server = server;
    }

    static CounterPage start() throws IOException {
        final HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        final CounterPage page = new CounterPage(server);
        server.createContext("/", page::handle);
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            final Thread t = new Thread(r, "counter-page-http");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        return page;
    }

    /** The page's address for run {@code run}. */
    String url(final String run) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/?run=" + run;
    }

    /** The stamps of {@code run} so far: value to epoch milliseconds. */
    Map<Integer, Double> stamps(final String run) {
        return stamps.computeIfAbsent(run, r -> new ConcurrentHashMap<>());
    }

    private void handle(final HttpExchange exchange) throws IOException {
        try (exchange) {
            final String query = exchange.getRequestURI().getQuery();
            final String run = query != null && query.startsWith("run=") ? query.substring(4) : "";
            if ("POST".equals(exchange.getRequestMethod()) && exchange.getRequestURI().getPath().equals("/stamps")) {
                final String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                final Map<Integer, Double> into = stamps(run);
                for (final String line : body.split("\n")) {
                    final String[] f = line.trim().split(" ");
                    if (f.length == 2) {
                        into.put(Integer.parseInt(f[0]), Double.parseDouble(f[1]));
                    }
                }
                exchange.sendResponseHeaders(204, -1);
                return;
            }
            final byte[] bytes = exchange.getRequestURI().getPath().equals("/") ? PAGE.getBytes(StandardCharsets.UTF_8)
                : new byte[0];
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(bytes.length == 0 ? 404 : 200, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } catch (final RuntimeException e) {
            System.err.println("counter page: " + e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
