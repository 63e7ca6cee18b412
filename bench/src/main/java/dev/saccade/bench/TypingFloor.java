package dev.saccade.bench;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.helper.GuardedBackend;
import dev.saccade.helper.backend.xtest.XTestBackend;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * What zenity itself needs to take the typing benchmark's text, in the same run as the
 * read-back, so the read-back can be read against the application's own floor. The text and a
 * Return go through the helper's XTEST backend (same code, in this JVM) into a fresh zenity entry
 * and are timed from the first key to zenity's printed line (its own output, nothing of ours).
 * Two series: zenity with {@code NO_AT_BRIDGE=1}, i.e. no accessibility at all (the application
 * alone); and zenity with its AT-SPI bridge while our source is connected, which is the state the
 * read-back measures: at-spi2-atk then hands every key press and release to the registry as a
 * blocking {@code DeviceEventController.NotifyListenersSync} call (a nested main loop until the
 * answer, for any assistive client, unconditionally in 2.46 and later) and sends one
 * {@code TextChanged} signal per character. The second is a fresh dialog (its first layout, our
 * source reading a new application whole while it types): the read-back rounds took 0.58-0.77 × its
 * time on their long-lived entry; the first is the application's own floor.
 */
final class TypingFloor {
    private static final String ALONE_TITLE = "Saccade entry without AT-SPI";

    private TypingFloor() {
    }

    /** Nanoseconds from the first key to zenity's printed line, or -1 if it printed something else. */
    static long run(final LiveDesktop live, final String text, final boolean bridge) throws Exception {
        final byte[] utf8 = (text + "\n").getBytes(StandardCharsets.UTF_8);
        final Process alone;
        final AppHandle bridged;
        final long window;
        final Path stdout;
        if (bridge) {
            alone = null;
            bridged = live.desktop.startApp(DemoApp.ZENITY_ENTRY);
            window = bridged.windowId();
            stdout = bridged.stdoutFile();
            TypingBench.awaitField(live, window); // our source has read it: the state of the read-back rounds
        } else {
            bridged = null;
            stdout = Files.createTempFile(live.runtime, "zenity-alone-", ".out");
            final ProcessBuilder pb = live.desktop.configure(new ProcessBuilder("zenity", "--entry",
                "--title=" + ALONE_TITLE, "--text=Type a line and press OK"));
            pb.environment().put("NO_AT_BRIDGE", "1");
            alone = pb.redirectOutput(stdout.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            window = live.desktop.awaitWindow(alone.pid(), null, 30_000);
        }
        try (XTestBackend raw = XTestBackend.open(live.desktop.display())) {
            final GuardedBackend backend = new GuardedBackend(raw,
                new HeldInputLedger().wrap(BytesStore.nativeStoreWithFixedCapacity(HeldInputLedger.LENGTH), 0).init());
            check("activate", raw.activateWindow(window));
            final long active = window;
            pollUntil(() -> raw.activeWindow() == active, 5, "zenity's window active");
            final long t0 = System.nanoTime();
            check("typeText", backend.typeText(utf8, 0, utf8.length));
            check("XSync", backend.sync());
            awaitBytes(stdout, utf8.length);
            final long ns = System.nanoTime() - t0;
            return Files.readString(stdout, StandardCharsets.UTF_8).equals(text + "\n") ? ns : -1;
        } finally {
            if (bridged != null) {
                live.desktop.closeApp(bridged);
            }
            if (alone != null) {
                alone.destroy();
                alone.waitFor(5, TimeUnit.SECONDS);
                Files.deleteIfExists(stdout);
            }
        }
    }

    private static void awaitBytes(final Path file, final int bytes) {
        pollUntil(() -> {
            try {
                return Files.size(file) >= bytes;
            } catch (final IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, 60, file + " holding " + bytes + " bytes");
    }

    /** Polls {@code condition} every millisecond until it holds, for at most {@code seconds}. */
    private static void pollUntil(final java.util.function.BooleanSupplier condition, final long seconds,
        final String what) {
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - until > 0) {
                throw new IllegalStateException("no " + what + " within " + seconds + " s");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
    }

    private static void check(final String what, final int result) {
        if (result != ResultCode.PLATFORM_OK) {
            throw new IllegalStateException(what + ": " + ResultCode.name(result));
        }
    }
}
