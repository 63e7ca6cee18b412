package dev.saccade.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A small static page on 127.0.0.1 (a heading, a form of three inputs, a select, links): what
 * {@code bench/run realapps} shows in Chromium and Firefox. Nothing on it changes by itself.
 */
final class BenchPage implements AutoCloseable {
    static final String TITLE = "Saccade bench page";
    private static final byte[] PAGE = ("<!doctype html><html><head><meta charset=utf-8><title>" + TITLE + "</title></head>"
        + "<body><h1>Order</h1><nav><a href=/a>Home</a> <a href=/b>Contact</a></nav>"
        + "<form action=/submit><label>Name <input name=name></label><label>Email <input name=email type=email></label>"
        + "<label>Size <select name=size><option>Small<option selected>Medium<option>Large</select></label>"
        + "<label>Note <textarea name=note></textarea></label><button>Send</button></form>"
        + "<h2>Details</h2><p>A page that changes nothing by itself.</p></body></html>").getBytes(StandardCharsets.UTF_8);

    private final HttpServer server;

    private BenchPage(final HttpServer server) {
        this.server = server;
    }

    static BenchPage serve() throws IOException {
        final HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, PAGE.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(PAGE);
            }
        });
        server.start();
        return new BenchPage(server);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
