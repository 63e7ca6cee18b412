package dev.saccade.kde;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.wayland.Outputs;
import dev.saccade.wayland.WaylandConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.freedesktop.dbus.DBusCallInfo;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.interfaces.DBus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KWin's windows, pushed by KWin itself (D37): the reader exports {@link KwinWindowSink} on the
 * session bus, loads a KWin script (plugin {@value #PLUGIN}) through {@code org.kde.kwin.Scripting}
 * that calls it with the whole window list whenever a window appears, goes, moves, resizes,
 * changes its caption, is (un)minimized or activated, and turns each list into a
 * {@link DesktopSnapshot}: windows bottom to top by KWin's stacking order, bounds the frame
 * geometry in global coordinates (KWin's own; with a decoration theme the frame includes the title
 * bar), ids numbered from 1 per KWin UUID in the order they were first seen, the active window,
 * minimized ones hidden, native Wayland windows client-relative for AT-SPI. A native popup (a
 * GTK 4 popover or menu) is no window but one of the snapshot's {@link DesktopSnapshot#popups()}
 * at its whole surface, so its objects are placed by it as on X11 and GNOME (D64, D72). Monitors
 * are the {@code wl_output}s, read once at the start.
 *
 * <p>Only KWin may report: a call whose sender is not the bus name that owns {@code org.kde.KWin}
 * is dropped and counted. One script per session: a reader unloads an earlier one of the same
 * plugin name first (an owner that died left it calling a name that is gone). The listener runs
 * on the D-Bus connection's method-call thread; calls are handled one at a time.
 */
public final class KwinWindowReader implements KwinWindowSink, AutoCloseable {
    public static final String PLUGIN = "saccade-windows";
    private static final long START_TIMEOUT_MS = 10_000;
    private static final Pattern UNIQUE_NAME = Pattern.compile(":[0-9]+\\.[0-9]+");
    private static final Logger LOG = LoggerFactory.getLogger(KwinWindowReader.class);

    private final String busAddress;
    private final String socket;
    private final Consumer<DesktopSnapshot> listener;
    private final CompletableFuture<Void> first = new CompletableFuture<>();
    /** KWin UUID to our window id; written on the method-call thread only. */
    private final Map<String, Long> ids = new HashMap<>();
    private List<MonitorInfo> monitors = List.of();
    private DBusConnection bus;
    private KwinScripting scripting;
    private String kwinOwner;
    private Path scriptDirectory;
    private DesktopSnapshot last;
    private long nextId = 1;
    private long sequence;
    private long rejected;
    private volatile boolean closed;

    /** {@code socket}: KWin's Wayland display (for the outputs); {@code busAddress}: the session bus KWin is on. */
    public KwinWindowReader(final String socket, final String busAddress, final Consumer<DesktopSnapshot> listener) {
        this.socket = socket;
        this.busAddress = busAddress;
        this.listener = listener;
    }

    /** Exports the sink, loads and runs the script, and returns once KWin's first report was delivered. */
    public KwinWindowReader start() throws IOException {
        if (busAddress == null || busAddress.isEmpty()) {
            throw new IOException("no D-Bus session bus: KWin's windows are read over it (set DBUS_SESSION_BUS_ADDRESS)");
        }
        monitors = readMonitors(socket);
        try {
            bus = DBusConnectionBuilder.forAddress(busAddress).withShared(false).receivingThreadConfig()
                .withMethodCallThreadCount(1).connectionConfig().build();
            kwinOwner = bus.getRemoteObject("org.freedesktop.DBus", "/org/freedesktop/DBus", DBus.class)
                .GetNameOwner(KwinScripting.SERVICE);
            bus.exportObject(PATH, this);
            scripting = bus.getRemoteObject(KwinScripting.SERVICE, KwinScripting.PATH, KwinScripting.class);
            if (scripting.isScriptLoaded(PLUGIN)) {
                scripting.unloadScript(PLUGIN);
            }
            final String self = bus.getUniqueName();
            if (!UNIQUE_NAME.matcher(self).matches()) {
                throw new IOException("unexpected unique bus name " + self);
            }
            scriptDirectory = Files.createTempDirectory("saccade-kwin-"); // 0700: KWin runs as our user
            final Path file = scriptDirectory.resolve("windows.js");
            Files.writeString(file, script(self), StandardCharsets.UTF_8);
            if (scripting.loadScript(file.toString(), PLUGIN) < 0) {
                throw new IOException("KWin refused to load " + file);
            }
            scripting.start();
            first.get(START_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            LOG.info("event=kwin_windows_started owner={} plugin={}", kwinOwner, PLUGIN);
            return this;
        } catch (final DBusException | DBusExecutionException e) {
            close();
            throw new IOException("KWin's scripting is unavailable on " + busAddress + ": " + e.getMessage(), e);
        } catch (final TimeoutException e) {
            close();
            throw new IOException("no window list from KWin's script within " + START_TIMEOUT_MS + " ms");
        } catch (final ExecutionException e) {
            close();
            throw new IOException(e.getCause());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IOException("interrupted", e);
        } catch (final IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private static List<MonitorInfo> readMonitors(final String socket) throws IOException {
        try (WaylandConnection connection = WaylandConnection.connect(socket)) {
            final List<MonitorInfo> out = new ArrayList<>();
            for (final Outputs.Output o : Outputs.read(connection).list()) {
                final String name = o.name() == null ? "output-" + out.size() : o.name();
                out.add(new MonitorInfo(MonitorInfo.stableId(name), name, o.x(), o.y(), o.width(), o.height(),
                    out.isEmpty()));
            }
            return out;
        }
    }

    /**
     * The script: KWin 5.27's scripting API ({@code workspace.clientList()}, each window's
     * {@code internalId}, {@code frameGeometry}, {@code bufferGeometry}, {@code popupWindow},
     * {@code stackingOrder}...), reporting to {@code service} (our unique bus name) with
     * {@code callDBus}. Native popups are reported with the windows: KWin adds and removes them
     * as clients too, so a popover's opening and closing each send a list.
     */
    static String script(final String service) {
        return String.join("\n",
            "var SERVICE = '" + service + "';",
            "function describe(c) {",
            "  var g = c.frameGeometry;",
            "  var b = c.bufferGeometry || g;",
            "  return {id: String(c.internalId), pid: c.pid, caption: String(c.caption),",
            "    resourceClass: String(c.resourceClass), x: g.x, y: g.y, width: g.width, height: g.height,",
            "    stacking: c.stackingOrder, active: c.active, minimized: c.minimized, screen: c.screen,",
            "    x11: c.windowId ? true : false, popup: c.popupWindow ? true : false,",
            "    bufferX: b.x, bufferY: b.y, bufferWidth: b.width, bufferHeight: b.height};",
            "}",
            "function report() {",
            "  var list = workspace.clientList();",
            "  var out = [];",
            "  for (var i = 0; i < list.length; i++) {",
            "    if (list[i].normalWindow || list[i].dialog || (list[i].popupWindow && !list[i].windowId)) {",
            "      out.push(describe(list[i]));",
            "    }",
            "  }",
            "  callDBus(SERVICE, '" + PATH + "', '" + INTERFACE + "', 'Windows', JSON.stringify(out));",
            "}",
            "function on(signal) {",
            "  if (signal && signal.connect) {",
            "    signal.connect(report);",
            "  }",
            "}",
            "function watch(c) {",
            "  on(c.frameGeometryChanged);",
            "  on(c.captionChanged);",
            "  on(c.minimizedChanged);",
            "  on(c.stackingOrderChanged);",
            "}",
            "var all = workspace.clientList();",
            "for (var i = 0; i < all.length; i++) {",
            "  watch(all[i]);",
            "}",
            "workspace.clientAdded.connect(function (c) { watch(c); report(); });",
            "on(workspace.clientRemoved);",
            "on(workspace.clientActivated);",
            "report();",
            "");
    }

    @Override
    public String getObjectPath() {
        return PATH;
    }

    /** One report from the script; only KWin's are read. */
    @Override
    public synchronized void windows(final String json) {
        final DBusCallInfo call = DBusConnection.getCallInfo();
        if (closed || call == null || kwinOwner == null || !kwinOwner.equals(call.getSource())) {
            if (Long.bitCount(++rejected) == 1) {
                LOG.warn("event=kwin_report_rejected sender={} count={}", call == null ? null : call.getSource(),
                    rejected);
            }
            return;
        }
        final List<KwinWindowList.Window> list;
        try {
            list = KwinWindowList.parse(json);
        } catch (final IOException e) {
            LOG.warn("event=kwin_report_malformed error={}", e.getMessage());
            return;
        }
        final DesktopSnapshot snapshot = snapshot(list);
        if (!snapshot.sameStateAs(last)) {
            last = snapshot;
            listener.accept(snapshot);
        }
        first.complete(null);
    }

    DesktopSnapshot snapshot(final List<KwinWindowList.Window> list) {
        final List<KwinWindowList.Window> ordered = new ArrayList<>(list);
        ordered.sort(Comparator.comparingInt(KwinWindowList.Window::stacking));
        final Set<String> present = new HashSet<>();
        final List<WindowInfo> windows = new ArrayList<>();
        final Set<Long> clientRelative = new HashSet<>();
        final List<WindowInfo> popups = new ArrayList<>();
        long active = 0;
        for (final KwinWindowList.Window w : ordered) {
            present.add(w.id());
            final long id = ids.computeIfAbsent(w.id(), k -> nextId++);
            if (w.popup()) {
                if (!w.x11() && !w.minimized() && w.bufferWidth() > 0 && w.bufferHeight() > 0) {
                    popups.add(new WindowInfo(id, w.pid(), "", w.bufferX(), w.bufferY(), w.bufferWidth(),
                        w.bufferHeight(), false, true, WindowInfo.NO_DESKTOP));
                }
                continue;
            }
            windows.add(new WindowInfo(id, w.pid(), w.caption(), w.x(), w.y(), w.width(), w.height(), w.minimized(),
                !w.minimized(), WindowInfo.NO_DESKTOP));
            if (!w.x11()) {
                clientRelative.add(id);
            }
            if (w.active()) {
                active = id;
            }
        }
        ids.keySet().retainAll(present); // ids are never reused: nextId only grows
        return DesktopSnapshot.of(++sequence, System.nanoTime(), active, windows, monitors, clientRelative)
            .withSurfaces(popups, Map.of());
    }

    /** Unloads the script, closes the connection and deletes the script file. */
    @Override
    public void close() {
        closed = true;
        if (scripting != null) {
            try {
                scripting.unloadScript(PLUGIN);
            } catch (final DBusExecutionException e) {
                LOG.warn("event=kwin_script_unload_failed error={}", e.getMessage());
            }
        }
        if (bus != null) {
            bus.disconnect();
        }
        if (scriptDirectory != null) {
            try {
                Files.deleteIfExists(scriptDirectory.resolve("windows.js"));
                Files.deleteIfExists(scriptDirectory);
            } catch (final IOException e) {
                LOG.warn("event=kwin_script_delete_failed dir={} error={}", scriptDirectory, e.getMessage());
            }
        }
    }
}
