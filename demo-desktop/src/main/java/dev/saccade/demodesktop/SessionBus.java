package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The desktop's D-Bus session bus: a {@code dbus-daemon} we start in the foreground, so it stays
 * our child and we know its pid (unlike {@code dbus-launch}, which forks it away). It listens on
 * {@code run/bus} inside the private directory rather than the session configuration's
 * {@code /tmp/dbus-XXXX}, and is ready when it prints its address.
 *
 * <p>It activates the accessibility services on demand; those re-parent to PID 1 and are found
 * by {@link DesktopProcessScan} at close. Its stderr carries one harmless line when not allowed to
 * raise its fd limit ("Failed to set fd limit to 65536").
 */
final class SessionBus {
    private final LaunchedProcess launched;
    private final String address;

    private SessionBus(final LaunchedProcess launched, final String address) {
        this.launched = launched;
        this.address = address;
    }

    static SessionBus start(
        final SessionDirectory directory,
        final DesktopEnvironment environment,
        final Deadline deadline) {
        final LaunchedProcess daemon = LaunchedProcess.start("dbus-daemon", List.of(
            "dbus-daemon", "--session", "--nofork", "--nopidfile", "--nosyslog", "--print-address=1",
            "--address=unix:path=" + directory.runtime().resolve("bus")),
            environment, Map.of(), directory.logs(), true);
        final String address = ReadyLine.await(daemon, deadline);
        if (address == null || !address.startsWith("unix:")) {
            throw new TestDesktopException("dbus-daemon printed no address: " + daemon.describe());
        }
        return new SessionBus(daemon, address.strip());
    }

    /**
     * A session bus configuration that also admits root (docs/wayland.md §3): a root test JVM
     * reads the accessibility trees of a session run as another user.
     */
    static String configurationAdmittingRoot() {
        return String.join("\n",
            "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"",
            " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">",
            "<busconfig>",
            "  <include>/usr/share/dbus-1/session.conf</include>",
            "  <policy context=\"default\"><allow user=\"root\"/></policy>",
            "</busconfig>", "");
    }

    /**
     * Starts a session bus as {@code user} (a Wayland session's, docs/wayland.md §3) with a
     * configuration that also admits root, adds it to {@code services} and returns its address.
     */
    static String startForUser(final SessionDirectory directory, final SessionUser user,
        final DesktopEnvironment environment, final List<LaunchedProcess> services, final Deadline deadline) {
        final Path busConfig = directory.root().resolve("session-bus.conf");
        try {
            Files.writeString(busConfig, configurationAdmittingRoot(), StandardCharsets.UTF_8);
            // Read by the session user through the directory it owns.
            user.own(busConfig);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot write the session bus configuration", e);
        }
        final LaunchedProcess bus = LaunchedProcess.start("dbus-daemon", user.command(List.of(
            "dbus-daemon", "--config-file=" + busConfig, "--nofork", "--nopidfile", "--nosyslog",
            "--print-address=1", "--address=unix:path=" + directory.runtime().resolve("bus"))),
            environment, Map.of(), directory.logs(), true);
        services.add(bus);
        final String address = ReadyLine.await(bus, deadline);
        if (address == null || !address.startsWith("unix:")) {
            throw new TestDesktopException("dbus-daemon printed no address: " + bus.describe());
        }
        return address.strip();
    }

    LaunchedProcess launched() {
        return launched;
    }

    String address() {
        return address;
    }
}
