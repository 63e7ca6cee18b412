package dev.saccade.helper.backend.wayland;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Starts {@link WaylandHolderMain} in a JVM of its own and reads its lines: the stand-in helper the tests kill. */
final class HolderProcess {
    private HolderProcess() {
    }

    /** The holder on {@code socket}, its ledger at {@code offset} of {@code file}; {@code kde}: through KWin's fake input. */
    static Process start(final String socket, final File file, final long offset, final boolean kde) throws Exception {
        final List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.startsWith("-Dchronicle") || argument.startsWith("-Dorg.slf4j")) {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(WaylandHolderMain.class.getName());
        command.add(socket);
        command.add(file.getPath());
        command.add(Long.toString(offset));
        if (kde) {
            command.add("kde");
        }
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** The first line of {@code child} that starts with {@code prefix}; fails if it exits first or within 30 s. */
    static String awaitLine(final Process child, final String prefix) throws Exception {
        final CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                final BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
                String l;
                while ((l = in.readLine()) != null) {
                    if (l.startsWith(prefix)) {
                        return l;
                    }
                }
                return "child exited " + child.waitFor();
            } catch (final Exception e) {
                return e.toString();
            }
        });
        final String result = line.get(30, TimeUnit.SECONDS);
        assertTrue(result.startsWith(prefix), result);
        return result;
    }

    /** Lets {@code window} pass: a measurement over a fixed window, not a wait for a condition. */
    static void observe(final Duration window) {
        final long untilNs = System.nanoTime() + window.toNanos();
        while (Await.before(untilNs)) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
        }
    }
}
