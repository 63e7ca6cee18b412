package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Stops a group of processes: SIGTERM to all at once, wait until every one is gone or the
 * deadline passes, SIGKILL to the rest, wait again.
 *
 * <p>"Gone" includes zombies ({@link #isGone} is public: the tests of the JUnit extension use it). Daemons that D-Bus activated (at-spi-bus-launcher,
 * at-spi2-registryd) are re-parented to PID 1, and on these machines PID 1 is not an init that
 * reaps promptly: a dead daemon can stay a zombie for seconds. A zombie runs no code and holds no
 * socket, so it counts as stopped; {@link ProcessHandle#isAlive()} alone would call it alive.
 *
 * <p>The waits ignore interrupts (and restore the flag afterwards): stopping must finish even on a
 * thread a JUnit timeout has just interrupted, or the desktop would leak.
 */
public final class ProcessStopper {
    static final long POLL_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(5);
    static final long KILL_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);

    private ProcessStopper() {
    }

    /**
     * @param stage names the group in failure messages ("apps", "x-server").
     * @return the processes that ignored SIGTERM and were killed, for the log.
     * @throws TestDesktopException when a process survives SIGKILL (it is in uninterruptible sleep).
     */
    static List<ProcessHandle> stop(final String stage, final List<ProcessHandle> processes, final long termTimeoutNs) {
        final List<ProcessHandle> running = new ArrayList<>(processes.size());
        for (final ProcessHandle process : processes) {
            if (!isGone(process)) {
                running.add(process);
                process.destroy();
            }
        }
        final List<ProcessHandle> killed = new ArrayList<>();
        if (awaitGone(running, termTimeoutNs)) {
            return killed;
        }
        for (final ProcessHandle process : running) {
            if (!isGone(process)) {
                killed.add(process);
                process.destroyForcibly();
            }
        }
        if (!awaitGone(killed, KILL_TIMEOUT_NS)) {
            final List<Long> survivors = new ArrayList<>();
            for (final ProcessHandle process : killed) {
                if (!isGone(process)) {
                    survivors.add(process.pid());
                }
            }
            throw new TestDesktopException("stage " + stage + ": processes survived SIGKILL: " + survivors);
        }
        return killed;
    }

    /** True when every process is gone by the timeout. */
    static boolean awaitGone(final List<ProcessHandle> processes, final long timeoutNs) {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        boolean interrupted = false;
        try {
            while (true) {
                if (allGone(processes)) {
                    return true;
                }
                if (deadlineNs - System.nanoTime() <= 0) {
                    return false;
                }
                LockSupport.parkNanos(POLL_INTERVAL_NS);
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static boolean allGone(final List<ProcessHandle> processes) {
        for (final ProcessHandle process : processes) {
            if (!isGone(process)) {
                return false;
            }
        }
        return true;
    }

    /** Not running: exited (reaped or not), or the pid now belongs to another process. */
    public static boolean isGone(final ProcessHandle process) {
        // isAlive() compares the start time, so a recycled pid does not count as ours.
        return !process.isAlive() || isZombie(process.pid());
    }

    /** State 'Z' (zombie) or 'X' (dead) in /proc/[pid]/stat; a missing entry is gone as well. */
    static boolean isZombie(final long pid) {
        final String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
        } catch (final NoSuchFileException e) {
            return true;
        } catch (final IOException e) {
            return false;
        }
        // "pid (comm) S ...": comm may contain spaces and parentheses, the state follows the last ')'.
        final int end = stat.lastIndexOf(')');
        if (end < 0 || end + 2 >= stat.length()) {
            return false;
        }
        final char state = stat.charAt(end + 2);
        return state == 'Z' || state == 'X';
    }

    /**
     * Ends a Wayland session in order: its apps, then its services in start order (the bus first:
     * its activated services see it go, and the compositor outlives its clients), then whatever
     * the bus activated; deletes the directory and disarms the lifeline (left armed if the
     * delete fails).
     */
    static void stopSession(final String prefix, final List<LaunchedProcess> apps, final List<LaunchedProcess> services,
        final SessionDirectory directory, final DesktopLifeline lifeline, final long timeoutNs) {
        final List<ProcessHandle> appHandles = new ArrayList<>();
        for (final LaunchedProcess app : apps) {
            appHandles.add(app.process().toHandle());
        }
        stop(prefix + "-apps", appHandles, timeoutNs);
        for (final LaunchedProcess service : services) {
            stop(prefix + "-" + service.name(), List.of(service.process().toHandle()), timeoutNs);
        }
        stop(prefix + "-activated", DesktopProcessScan.find(directory), timeoutNs);
        try {
            directory.delete();
        } catch (final IOException e) {
            throw new TestDesktopException("cannot delete " + directory.root(), e);
        }
        if (lifeline != null) {
            lifeline.close();
        }
    }
}
