package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** An app a {@link SwayDesktop} started: its pid, its stdout file and its exit. */
public final class SwayApp {
    private final LaunchedProcess launched;

    SwayApp(final LaunchedProcess launched) {
        this.launched = launched;
    }

    public long pid() {
        return launched.pid();
    }

    public Path stdoutFile() {
        return launched.stdoutFile();
    }

    /** Everything the app printed so far. */
    public String stdout() {
        try {
            return Files.readString(launched.stdoutFile(), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot read the output of " + launched.name(), e);
        }
    }

    public boolean isRunning() {
        return launched.process().isAlive();
    }

    /** The exit code, or -1 if still running after the timeout. */
    public int awaitExit(final long timeoutMs) throws InterruptedException {
        return launched.process().waitFor(timeoutMs, TimeUnit.MILLISECONDS) ? launched.process().exitValue() : -1;
    }

    @Override
    public String toString() {
        return launched.describe();
    }
}
