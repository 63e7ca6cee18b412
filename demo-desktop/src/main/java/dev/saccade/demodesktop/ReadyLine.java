package dev.saccade.demodesktop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The line a server prints on stdout once it accepts connections, such as dbus-daemon's
 * {@code --print-address}. Waiting for it is waiting on the real event, no polling.
 *
 * <p>A blocking read has no timeout, so it runs on a short-lived daemon thread and we wait for
 * its result to the deadline. If the deadline passes, the caller stops the process; the read then
 * sees end of file and the thread ends.
 */
final class ReadyLine {
    private ReadyLine() {
    }

    /**
     * @return the first line, or null if the process closed stdout (exited) without printing one.
     * @throws TestDesktopException when the deadline passes first.
     */
    static String await(final LaunchedProcess launched, final Deadline deadline) {
        final CompletableFuture<String> line = new CompletableFuture<>();
        final Thread reader = new Thread(() -> readFirstLine(launched, line), "saccade-desktop-ready-" + launched.name());
        reader.setDaemon(true);
        reader.start();
        try {
            return line.get(deadline.remainingNs(), TimeUnit.NANOSECONDS);
        } catch (final TimeoutException e) {
            throw new TestDesktopException(launched.name() + " did not report ready within "
                + deadline.timeoutMs() + " ms: " + launched.describe(), e);
        } catch (final ExecutionException e) {
            throw new TestDesktopException("cannot read the ready line of " + launched.describe(), e.getCause());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestDesktopException("interrupted while waiting for " + launched.name(), e);
        }
    }

    private static void readFirstLine(final LaunchedProcess launched, final CompletableFuture<String> line) {
        // Not closed on success: closing our end would make a later write by the server fail.
        final BufferedReader in = new BufferedReader(
            new InputStreamReader(launched.process().getInputStream(), StandardCharsets.UTF_8));
        try {
            line.complete(in.readLine());
        } catch (final IOException e) {
            line.completeExceptionally(e);
        }
    }
}
