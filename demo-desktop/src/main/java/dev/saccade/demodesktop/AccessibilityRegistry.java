package dev.saccade.demodesktop;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The AT-SPI2 registry of one desktop, asked through {@code dbus-send}.
 *
 * <p>The accessibility bus is a second D-Bus daemon; {@code org.a11y.Bus.GetAddress} on the
 * session bus returns its address (activating at-spi-bus-launcher the first time). On that bus,
 * {@code org.a11y.atspi.Registry}'s root lists every registered application as (bus name, path).
 * An application is matched to the process we started by the unix process id of its bus
 * connection ({@code org.freedesktop.DBus.GetConnectionUnixProcessID}), not by its accessible
 * name, so two instances of one app are told apart.
 *
 * <p>{@link #start(Deadline)} brings the bus and the registry up before any app starts. Qt 5.15
 * races when the accessibility bus appears while it initialises (its bus watcher and the
 * {@code AT_SPI_BUS} root property both make it connect; it then calls the registry's
 * {@code Embed} on the connection it dropped, logs "Error in contacting registry: Disconnected"
 * and never retries): the calculator stayed unregistered in about 1 of 25 cold starts next to
 * GTK apps that activated the bus, and in none of 50 with the bus started first.
 *
 * <p>Used by the thread holding the desktop's monitor only.
 */
final class AccessibilityRegistry {
    private static final Pattern STRING = Pattern.compile("string \"(.*)\"");
    private static final Pattern BUS_NAME = Pattern.compile("string \"(:[0-9.]+)\"");
    private static final Pattern UINT32 = Pattern.compile("uint32 (\\d+)");

    private final DesktopEnvironment environment;
    /** Unique bus names are never reused by one bus daemon, so their pids can be cached. */
    private final Map<String, Long> pidByBusName = new HashMap<>();
    private String busAddress;

    AccessibilityRegistry(final DesktopEnvironment environment) {
        this.environment = environment;
    }

    /**
     * Activates the accessibility bus (at-spi-bus-launcher, which also sets {@code AT_SPI_BUS} on
     * the root window) and the registry daemon, and returns once the registry answers.
     */
    void start(final Deadline deadline) {
        busAddress();
        while (!send("--dest=org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root",
            "org.a11y.atspi.Accessible.GetChildren").succeeded()) {
            if (deadline.isExpired()) {
                throw new TestDesktopException("the AT-SPI2 registry did not answer within " + deadline.timeoutMs()
                    + " ms (is at-spi2-core installed?)");
            }
            deadline.pauseBeforeNextPoll("the AT-SPI2 registry");
        }
    }

    /** The accessibility bus address; starts the bus on first use. */
    String busAddress() {
        if (busAddress == null) {
            final ToolCommand.Result result = ToolCommand.run(environment, List.of(
                "dbus-send", "--session", "--print-reply", "--reply-timeout=" + ToolCommand.TIMEOUT_MS,
                "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"));
            final Matcher m = STRING.matcher(result.stdout());
            if (!result.succeeded() || !m.find()) {
                throw new TestDesktopException("no accessibility bus (is at-spi2-core installed?): "
                    + result.stderr().strip());
            }
            busAddress = m.group(1);
        }
        return busAddress;
    }

    /**
     * Every application registered right now, bus name to pid. Empty while the registry daemon is
     * still being activated: the caller polls.
     */
    Map<String, Long> applications() {
        final ToolCommand.Result children = send(
            "--dest=org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root",
            "org.a11y.atspi.Accessible.GetChildren");
        final Map<String, Long> applications = new LinkedHashMap<>();
        if (!children.succeeded()) {
            return applications;
        }
        final Matcher m = BUS_NAME.matcher(children.stdout());
        while (m.find()) {
            final String busName = m.group(1);
            Long pid = pidByBusName.get(busName);
            if (pid == null) {
                pid = connectionPid(busName);
                if (pid < 0) {
                    continue;  // the application left the bus since the registry answered
                }
                pidByBusName.put(busName, pid);
            }
            applications.put(busName, pid);
        }
        return applications;
    }

    private long connectionPid(final String busName) {
        final ToolCommand.Result result = send(
            "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:" + busName);
        final Matcher m = UINT32.matcher(result.stdout());
        return result.succeeded() && m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private ToolCommand.Result send(final String... arguments) {
        final List<String> command = new java.util.ArrayList<>(List.of(
            "dbus-send", "--bus=" + busAddress(), "--print-reply", "--reply-timeout=" + ToolCommand.TIMEOUT_MS));
        command.addAll(List.of(arguments));
        return ToolCommand.run(environment, command);
    }
}
