package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Xvfb on a display number nobody uses: the X server of one desktop.
 *
 * <p>A display is free when neither its socket {@code /tmp/.X11-unix/X<n>} nor its lock file
 * {@code /tmp/.X<n>-lock} exists. Another process (a parallel test JVM) can take the same number
 * between our check and Xvfb's start; Xvfb then exits ("Server is already active", "Cannot
 * establish any listening sockets") and we try the next number. Ready means: the lock file holds
 * our Xvfb's pid and {@code xdpyinfo} gets an answer on the display, so a server that another
 * process started on that number can never be mistaken for ours.
 *
 * <p>{@code -noreset}: without it the server resets when its last client disconnects, which
 * drops every property and moves the pointer. {@code -nolisten tcp}: local sockets only.
 * {@code -auth}: only clients with the desktop's cookie, or of our uid ({@link XAuthority}).
 */
final class XvfbServer {
    static final Path SOCKET_DIRECTORY = Path.of("/tmp/.X11-unix");
    /** Numbers of taken displays skipped before we give up: far more than parallel JVMs. */
    static final int MAX_DISPLAYS_SCANNED = 200;
    /** Failed starts on numbers that looked free (lost races) before we give up. */
    static final int MAX_START_ATTEMPTS = 10;

    private final int displayNumber;
    private final LaunchedProcess launched;

    private XvfbServer(final int displayNumber, final LaunchedProcess launched) {
        this.displayNumber = displayNumber;
        this.launched = launched;
    }

    static XvfbServer start(
        final TestDesktopContext context,
        final DesktopEnvironment environment,
        final Path logDirectory,
        final XAuthority authority,
        final Deadline deadline) {
        final String screen = context.screenWidth() + "x" + context.screenHeight() + "x" + context.screenDepth();
        final StringBuilder failures = new StringBuilder();
        int attempts = 0;
        final int last = context.firstDisplayNumber() + MAX_DISPLAYS_SCANNED;
        for (int n = context.firstDisplayNumber(); n < last && attempts < MAX_START_ATTEMPTS; n++) {
            if (exists(socketPath(n)) || exists(lockPath(n))) {
                continue;
            }
            attempts++;
            final List<String> command = new ArrayList<>(List.of(
                "Xvfb", ":" + n, "-screen", "0", screen, "-nolisten", "tcp", "-noreset"));
            command.addAll(authority.serverArguments());
            final LaunchedProcess xvfb = LaunchedProcess.start("Xvfb-" + n, command,
                environment, Map.of(), logDirectory, false);
            final X11Query x11 = new X11Query(environment, ":" + n);
            try {
                if (awaitReady(n, xvfb, x11, deadline)) {
                    return new XvfbServer(n, xvfb);
                }
            } catch (final TestDesktopException e) {
                stopQuietly(xvfb, e);
                throw e;
            }
            final String stderr = xvfb.stderrTail();
            if (!lostRace(stderr)) {
                throw new TestDesktopException("Xvfb failed on :" + n + ": " + xvfb.describe());
            }
            failures.append("\n:").append(n).append(": ").append(lastLine(stderr));
        }
        throw new TestDesktopException("no free X display from :" + context.firstDisplayNumber()
            + " after " + attempts + " attempts:" + failures);
    }

    /**
     * True once display n answers and its lock file names our Xvfb; false when Xvfb exited (a lost
     * race, or a real failure the caller tells apart by its stderr). Not {@code -displayfd}: with
     * it, Xvfb writes no lock file, and other tools (xvfb-run) only look at lock files.
     */
    private static boolean awaitReady(final int n, final LaunchedProcess xvfb, final X11Query x11, final Deadline deadline) {
        while (true) {
            if (!xvfb.process().isAlive()) {
                return false;
            }
            // The lock is exclusive and written before the sockets: if it names our pid, the server
            // answering on :n is ours, not one another process started on the same number.
            if (lockOwner(n) == xvfb.pid() && x11.answers()) {
                return true;
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("Xvfb did not answer on :" + n + " within " + deadline.timeoutMs()
                    + " ms: " + xvfb.describe());
            }
            deadline.pauseBeforeNextPoll("Xvfb on :" + n);
        }
    }

    int displayNumber() {
        return displayNumber;
    }

    String display() {
        return ":" + displayNumber;
    }

    LaunchedProcess launched() {
        return launched;
    }

    Path socketPath() {
        return socketPath(displayNumber);
    }

    Path lockPath() {
        return lockPath(displayNumber);
    }

    /**
     * Xvfb removes its socket and lock file when it exits on SIGTERM, but not when killed. Call once
     * it is gone: removes them if the lock still names our (dead) server.
     */
    void removeLeftoverFiles() throws IOException {
        if (lockOwner(displayNumber) == launched.pid()) {
            Files.deleteIfExists(socketPath());
            Files.deleteIfExists(lockPath());
        }
    }

    static Path socketPath(final int n) {
        return SOCKET_DIRECTORY.resolve("X" + n);
    }

    static Path lockPath(final int n) {
        return Path.of("/tmp/.X" + n + "-lock");
    }

    private static boolean exists(final Path path) {
        return Files.exists(path, LinkOption.NOFOLLOW_LINKS);
    }

    /** The pid in a lock file ("%10d\n"), or -1 without a readable one. */
    private static long lockOwner(final int n) {
        try {
            // Any user can create /tmp/.X<n>-lock: only a regular file is read (a FIFO would block).
            if (!Files.isRegularFile(lockPath(n), LinkOption.NOFOLLOW_LINKS) || Files.size(lockPath(n)) > 64) {
                return -1;
            }
            return Long.parseLong(Files.readString(lockPath(n), StandardCharsets.US_ASCII).strip());
        } catch (final NoSuchFileException | NumberFormatException e) {
            return -1;
        } catch (final IOException e) {
            return -1;
        }
    }

    private static boolean lostRace(final String stderr) {
        return stderr.contains("already active") || stderr.contains("Cannot establish any listening sockets")
            || stderr.contains("lock file");
    }

    private static String lastLine(final String text) {
        final String stripped = text.strip();
        return stripped.substring(stripped.lastIndexOf('\n') + 1);
    }

    private static void stopQuietly(final LaunchedProcess xvfb, final Exception failure) {
        try {
            ProcessStopper.stop("x-server", List.of(xvfb.process().toHandle()), ProcessStopper.KILL_TIMEOUT_NS);
        } catch (final TestDesktopException e) {
            failure.addSuppressed(e);
        }
    }
}
