package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command-line tool against a desktop and returns its stdout; fails the test on error. */
final class Tools {
    private Tools() {
    }

    static String run(final TestDesktop desktop, final String... command) throws IOException, InterruptedException {
        final Process process = desktop.configure(new ProcessBuilder(List.of(command))).redirectErrorStream(true).start();
        final byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8).strip();
    }
}
