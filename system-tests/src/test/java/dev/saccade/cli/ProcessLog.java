package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/** Waits on what a child process (an owner, a helper) writes to its log file. */
final class ProcessLog {
    private ProcessLog() {
    }

    /**
     * Waits until {@code log} contains every one of {@code texts}, and returns its text then; fails
     * at once when {@code process} exits first. A failure shows {@code shown} (the log that tells why).
     */
    static String awaitContains(final Process process, final Path log, final Path shown, final Duration timeout,
        final String... texts) throws Exception {
        final String text = Await.probe(() -> Files.exists(log) ? Files.readString(log) : "",
            t -> containsAll(t, texts) || !process.isAlive(), timeout, Duration.ofMillis(2),
            t -> String.join(" and ", texts) + " in " + log + "; " + shown + ":\n" + read(shown));
        assertTrue(containsAll(text, texts), () -> "the process exited first; " + shown + ":\n" + read(shown));
        return text;
    }

    private static boolean containsAll(final String text, final String... texts) {
        return Arrays.stream(texts).allMatch(text::contains);
    }

    /** The log's text, for a failure message. */
    static String read(final Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "(missing)";
        } catch (final IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
