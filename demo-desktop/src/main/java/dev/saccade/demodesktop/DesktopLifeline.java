package dev.saccade.demodesktop;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A watchdog process that stops the desktop if this JVM dies without closing it: SIGKILL, a
 * crash, or a native {@code exit()} (Xlib's default I/O error handler does that), none of which
 * run shutdown hooks. Seen here: a killed test JVM left Xvfb, openbox and both D-Bus daemons
 * running.
 *
 * <p>The watchdog is a {@code sh} reading its stdin, a pipe whose only write end is in this JVM
 * (child processes get no descriptors but 0, 1 and 2). The kernel closes that end when the JVM
 * dies however it dies, so end of file means "owner gone". It then does what {@link TestDesktop#close()}
 * would, coarsely: SIGTERM to every process whose environment holds the desktop's
 * XDG_RUNTIME_DIR, up to 5 s for them to go, SIGKILL the rest, remove a dead Xvfb's socket and lock
 * file, delete the private directory.
 *
 * <p>Protocol, one line each: {@code runtime <dir>}, {@code root <dir>}, {@code xvfb <display>
 * <pid>}, and {@code disarm} from a normal close, after which it exits without doing anything.
 * Paths travel on stdin, not the command line: {@link DesktopProcessScan} matches command lines
 * naming our directory, and must not stop the watchdog.
 */
final class DesktopLifeline implements AutoCloseable {
    static final long EXIT_TIMEOUT_MS = 2_000;

    // Zombies have an empty environ, so they never match. $$ is the watchdog itself; it and the
    // tools it runs are started without our XDG_RUNTIME_DIR anyway.
    private static final String SCRIPT = String.join("\n",
        "runtime=; root=; display=; xpid=",
        "while read -r word rest; do",
        "  case $word in",
        "    disarm) exit 0 ;;",
        "    runtime) runtime=$rest ;;",
        "    root) root=$rest ;;",
        "    xvfb) display=${rest% *}; xpid=${rest#* } ;;",
        "  esac",
        "done",
        "[ -n \"$runtime\" ] || exit 0",
        "ours() {",
        "  for e in /proc/[0-9]*/environ; do",
        "    p=${e#/proc/}; p=${p%/environ}",
        "    [ \"$p\" != $$ ] && grep -qxzF -- \"XDG_RUNTIME_DIR=$runtime\" \"$e\" 2>/dev/null && echo \"$p\"",
        "  done",
        "}",
        "pids=$(ours); [ -n \"$pids\" ] && kill -TERM $pids 2>/dev/null",
        "i=0",
        "while [ $i -lt 50 ] && [ -n \"$(ours)\" ]; do sleep 0.1; i=$((i + 1)); done",
        "pids=$(ours); [ -n \"$pids\" ] && kill -KILL $pids 2>/dev/null",
        "if [ -n \"$display\" ] && [ \"$(tr -d ' \\n' < /tmp/.X$display-lock 2>/dev/null)\" = \"$xpid\" ]; then",
        "  rm -f \"/tmp/.X11-unix/X$display\" \"/tmp/.X$display-lock\"",
        "fi",
        "[ -n \"$root\" ] && rm -rf -- \"$root\"",
        "exit 0");

    private final Process watchdog;
    private final OutputStream commands;

    private DesktopLifeline(final Process watchdog) {
        this.watchdog = watchdog;
        this.commands = watchdog.getOutputStream();
    }

    /** Starts the watchdog, armed for the given directory, before anything of the desktop runs. */
    static DesktopLifeline arm(final SessionDirectory directory) {
        final ProcessBuilder builder = new ProcessBuilder(List.of("sh", "-c", SCRIPT, "saccade-desktop-lifeline"));
        // Not the desktop's environment: the watchdog must not match its own scan.
        builder.environment().remove(DesktopEnvironment.XDG_RUNTIME_DIR);
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.redirectError(directory.logs().resolve("lifeline.log").toFile());
        final DesktopLifeline lifeline;
        try {
            lifeline = new DesktopLifeline(builder.start());
        } catch (final IOException e) {
            throw new TestDesktopException("cannot start the desktop's lifeline watchdog (sh)", e);
        }
        lifeline.send("runtime " + directory.runtime() + "\nroot " + directory.root() + "\n");
        return lifeline;
    }

    /** Tells the watchdog which display to clean up after a killed Xvfb. */
    void xvfbStarted(final int displayNumber, final long pid) {
        send("xvfb " + displayNumber + " " + pid + "\n");
    }

    long pid() {
        return watchdog.pid();
    }

    /** Disarms the watchdog after a normal close and waits for it to exit. */
    @Override
    public void close() {
        try {
            commands.write("disarm\n".getBytes(StandardCharsets.UTF_8));
            commands.close();
        } catch (final IOException ignore) {
            // reason: the watchdog is gone already; destroyForcibly below makes sure
        }
        boolean interrupted = false;
        try {
            if (!watchdog.waitFor(EXIT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                watchdog.destroyForcibly();
            }
        } catch (final InterruptedException e) {
            interrupted = true;
            watchdog.destroyForcibly();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(final String lines) {
        try {
            commands.write(lines.getBytes(StandardCharsets.UTF_8));
            commands.flush();
        } catch (final IOException e) {
            throw new TestDesktopException("the desktop's lifeline watchdog exited early", e);
        }
    }
}
