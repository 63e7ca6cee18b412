package dev.saccade.bench;

import dev.saccade.demodesktop.TestDesktop;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an application itself publishes on the accessibility bus: {@code dbus-monitor} on the
 * desktop's accessibility bus, every AT-SPI object event with its sender and time. An
 * application's updates are its bursts of tree events (children, text, name changed) separated
 * by more than {@link #BURST_GAP_MS}: however fast a page changes, no AT-SPI reader can see more
 * values than the application announced, so this is the floor a scene's count is held against.
 */
final class BusUpdateFloor implements AutoCloseable {
    /** Events of one update come within a few milliseconds; a page changing 10 times a second is 100 ms apart. */
    static final double BURST_GAP_MS = 25;
    private static final Pattern SIGNAL = Pattern.compile(
        "^signal time=(\\d+\\.\\d+) sender=(\\S+) .*interface=org\\.a11y\\.atspi\\.Event\\.Object; member=(\\w+)");

    /** One event: epoch milliseconds, sender, member. */
    record Event(double epochMs, String sender, String member) {
    }

    private final Process monitor;
    private final Thread reader;
    private final List<Event> events = new ArrayList<>();

    private BusUpdateFloor(final Process monitor) {
        this.monitor = monitor;
        this.reader = new Thread(this::read, "bus-update-floor");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    static BusUpdateFloor start(final TestDesktop desktop) throws IOException {
        final Process p = desktop.configure(new ProcessBuilder("dbus-monitor", "--address",
            desktop.accessibilityBusAddress(), "type='signal',interface='org.a11y.atspi.Event.Object'"))
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return new BusUpdateFloor(p);
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(monitor.getInputStream(),
            StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                final Matcher m = SIGNAL.matcher(line);
                if (m.find()) {
                    final Event e = new Event(Double.parseDouble(m.group(1)) * 1000.0, m.group(2), m.group(3));
                    synchronized (events) {
                        events.add(e);
                    }
                }
            }
        } catch (final IOException e) {
            // reason: the monitor was stopped; what it printed until then is kept
        }
    }

    /** The events {@code sender} sent between the two epoch times, by member. */
    Map<String, Integer> members(final String sender, final double fromMs, final double toMs) {
        final Map<String, Integer> out = new TreeMap<>();
        for (final Event e : between(sender, fromMs, toMs)) {
            out.merge(e.member(), 1, Integer::sum);
        }
        return out;
    }

    /** {@code sender}'s updates between the two epoch times: bursts of tree events. */
    int updates(final String sender, final double fromMs, final double toMs) {
        int bursts = 0;
        double last = Double.NEGATIVE_INFINITY;
        for (final Event e : between(sender, fromMs, toMs)) {
            final String m = e.member();
            if (!"ChildrenChanged".equals(m) && !"TextChanged".equals(m) && !"PropertyChange".equals(m)) {
                continue;
            }
            if (e.epochMs() - last > BURST_GAP_MS) {
                bursts++;
            }
            last = e.epochMs();
        }
        return bursts;
    }

    /**
     * The epoch time of the first event of {@code sender}'s last update that began at or before
     * {@code atMs}, or NaN: the announcement a scene seen at {@code atMs} can have come from.
     */
    double lastUpdateBefore(final String sender, final double atMs) {
        double start = Double.NaN;
        double last = Double.NEGATIVE_INFINITY;
        for (final Event e : between(sender, Double.NEGATIVE_INFINITY, atMs + 1e-3)) {
            final String m = e.member();
            if (!"ChildrenChanged".equals(m) && !"TextChanged".equals(m) && !"PropertyChange".equals(m)) {
                continue;
            }
            if (e.epochMs() - last > BURST_GAP_MS) {
                start = e.epochMs();
            }
            last = e.epochMs();
        }
        return start;
    }

    private List<Event> between(final String sender, final double fromMs, final double toMs) {
        final List<Event> out = new ArrayList<>();
        synchronized (events) {
            for (final Event e : events) {
                if (e.sender().equals(sender) && e.epochMs() >= fromMs && e.epochMs() < toMs) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        monitor.destroy();
        try {
            monitor.waitFor();
            reader.join(2_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
