package dev.saccade.supervisor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Where the supervisor's X display comes from. A login item started by the systemd user manager
 * sees the manager's environment as it was when the service started; the graphical session puts
 * {@code DISPLAY} (and {@code XAUTHORITY}) there with {@code systemctl --user import-environment}
 * or {@code dbus-update-activation-environment --systemd}, normally before
 * {@code graphical-session.target} is reached, which the unit starts after. So: a
 * {@code --display} argument wins, then our own environment, then, under systemd, the user
 * manager's environment as it is now (asked again while we wait, so a session that imports its
 * display late is still found); until then the supervisor waits and says so.
 */
final class SessionDisplay {
    /** How the display was found; {@link #WAITING} while none is known. */
    enum Source {
        ARGUMENT("argument"), ENVIRONMENT("environment"), USER_MANAGER("user manager"), WAITING("waiting");

        final String label;

        Source(final String label) {
            this.label = label;
        }
    }

    /** Variables a display found in the user manager's environment brings along for the children. */
    static final List<String> SESSION_VARIABLES = List.of("XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS");
    private static final long SYSTEMCTL_TIMEOUT_MS = 3_000;
    private static final java.util.regex.Pattern LOCAL_DISPLAY = java.util.regex.Pattern.compile(":(\\d+)(\\.\\d+)?");

    final String display;
    final Source source;
    /** Extra environment for the children (from the user manager), possibly empty. */
    final Map<String, String> environment;

    private SessionDisplay(final String display, final Source source, final Map<String, String> environment) {
        this.display = display;
        this.source = source;
        this.environment = environment;
    }

    static SessionDisplay of(final String display, final Source source) {
        return new SessionDisplay(display, source, Map.of());
    }

    static SessionDisplay waiting() {
        return new SessionDisplay(null, Source.WAITING, Map.of());
    }

    boolean known() {
        return source != Source.WAITING;
    }

    /**
     * The display of the graphical session, looked up in {@code managerEnvironment} (when we run
     * under systemd) after the argument and our environment turned up nothing.
     */
    static SessionDisplay lookUp(final Map<String, String> ownEnvironment, final Supplier<Map<String, String>> managerEnvironment) {
        final String own = ownEnvironment.get("DISPLAY");
        if (own != null && !own.isEmpty()) {
            return of(own, Source.ENVIRONMENT);
        }
        if (!underSystemd(ownEnvironment)) {
            return waiting();
        }
        final Map<String, String> manager = managerEnvironment.get();
        final String display = manager.get("DISPLAY");
        if (display == null || display.isEmpty()) {
            return waiting();
        }
        final Map<String, String> extra = new LinkedHashMap<>();
        for (final String name : SESSION_VARIABLES) {
            if (manager.containsKey(name) && !ownEnvironment.containsKey(name)) {
                extra.put(name, manager.get(name));
            }
        }
        return new SessionDisplay(display, Source.USER_MANAGER, Map.copyOf(extra));
    }

    /**
     * Whether an X server listens on a local display ({@code :n} or {@code :n.s}): a connect to
     * its socket in {@code /tmp/.X11-unix} is accepted (a server killed with SIGKILL leaves the
     * socket file, which then refuses). Any other form (a remote display, a test's stub) counts
     * as answering: only a local one can be checked without speaking X.
     */
    static boolean answers(final String display) {
        final java.util.regex.Matcher local = LOCAL_DISPLAY.matcher(display == null ? "" : display);
        if (!local.matches()) {
            return true;
        }
        final java.nio.file.Path socket = java.nio.file.Path.of("/tmp/.X11-unix", "X" + local.group(1));
        try (java.nio.channels.SocketChannel channel =
                 java.nio.channels.SocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            return channel.connect(java.net.UnixDomainSocketAddress.of(socket));
        } catch (final java.io.IOException e) {
            return false;
        }
    }

    /** systemd sets these for every service it starts (INVOCATION_ID since v232). */
    static boolean underSystemd(final Map<String, String> environment) {
        return environment.containsKey("INVOCATION_ID") || environment.containsKey("MANAGERPID");
    }

    /** What status and doctor say while waiting: why, and what to do. */
    static String waitingHint(final Map<String, String> ownEnvironment) {
        final String wayland = ownEnvironment.get("WAYLAND_DISPLAY");
        final String why = "no X display: DISPLAY is not set in the supervisor's environment"
            + (underSystemd(ownEnvironment) ? " nor in the systemd user manager's" : "")
            + (wayland != null ? " (WAYLAND_DISPLAY=" + wayland + " is, but Saccade needs X11 or Xwayland)" : "");
        return why + "; from the graphical session run `systemctl --user import-environment DISPLAY XAUTHORITY`"
            + " (the supervisor looks again every few seconds), or start it with --display";
    }

    /**
     * {@code systemctl --user show-environment}, parsed; empty if it fails or takes over 3 s.
     * Values systemd quotes ({@code $'...'}, for control characters) are taken without the
     * quotes; a display name never needs them.
     */
    static Map<String, String> userManagerEnvironment() {
        final Map<String, String> out = new LinkedHashMap<>();
        try {
            final Process p = new ProcessBuilder("systemctl", "--user", "show-environment")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            if (!p.waitFor(SYSTEMCTL_TIMEOUT_MS, TimeUnit.MILLISECONDS)) { // an environment fits the pipe
                p.destroyForcibly();
                return out;
            }
            final String text = readAll(p.getInputStream());
            if (p.exitValue() != 0) {
                return out;
            }
            for (final String line : text.split("\n")) {
                final int eq = line.indexOf('=');
                if (eq > 0) {
                    String value = line.substring(eq + 1);
                    if (value.startsWith("$'") && value.endsWith("'")) {
                        value = value.substring(2, value.length() - 1);
                    }
                    out.put(line.substring(0, eq), value);
                }
            }
        } catch (final IOException e) {
            return out; // no systemctl: nothing to ask
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }

    private static String readAll(final InputStream in) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
