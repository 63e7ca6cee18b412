package dev.saccade.helper.backend.xtest;

import dev.saccade.demodesktop.TestDesktop;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs an X client tool (xinput, xprop, xmodmap, xdotool) against a test desktop and returns its stdout. */
final class DesktopTool {
    private DesktopTool() {
    }

    static String run(final TestDesktop desktop, final String... command) {
        final ProcessBuilder builder = desktop.configure(new ProcessBuilder(List.of(command)))
            .redirectError(ProcessBuilder.Redirect.DISCARD);
        try {
            final Process process = builder.start();
            final byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError(String.join(" ", command) + " did not exit in 10 s");
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " exited " + process.exitValue());
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command), e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + String.join(" ", command), e);
        }
    }

    /** Whether {@code xinput query-state} reports {@code button[n]=down} for the device. */
    static boolean buttonDown(final TestDesktop desktop, final String device, final int button) {
        return run(desktop, "xinput", "query-state", device).contains("button[" + button + "]=down");
    }

    /** Whether key code {@code keyCode} is set in a 32-byte XQueryKeymap vector. */
    static boolean keyDown(final byte[] keys32, final int keyCode) {
        return (keys32[keyCode >>> 3] & 1 << (keyCode & 7)) != 0;
    }

    static boolean noKeyDown(final byte[] keys32) {
        for (final byte b : keys32) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
