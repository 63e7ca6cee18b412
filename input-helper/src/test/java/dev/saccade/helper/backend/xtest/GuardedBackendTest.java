package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.helper.GuardedBackend;
import dev.saccade.helper.backend.PointerState;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@WithTestDesktop
class GuardedBackendTest {
    private static final String XTEST_POINTER = "Virtual core XTEST pointer";
    private static final int KEY_A = 0x04;

    @Test
    @Timeout(30)
    void releaseAllLeavesNothingHeldAndAdvancesThePhysicalSequence(final TestDesktop desktop) throws Exception {
        final HeldInputLedger ledger = new HeldInputLedger()
            .wrap(BytesStore.nativeStoreWithFixedCapacity(HeldInputLedger.LENGTH), 0).init();
        try (XTestBackend observer = XTestBackend.open(desktop.display());
             GuardedBackend backend = new GuardedBackend(XTestBackend.open(desktop.display()), ledger)) {
            final byte[] keys = new byte[32];
            final PointerState pointer = new PointerState();
            backend.movePointer(5, 5);
            assertEquals(ResultCode.PLATFORM_OK, backend.modifier(Modifier.CONTROL, true));
            assertEquals(ResultCode.PLATFORM_OK, backend.key(KEY_A, true));
            assertEquals(ResultCode.PLATFORM_OK, backend.button(Button.RIGHT, true));
            ledger.activeLeaseId(42);
            assertEquals(ResultCode.PLATFORM_OK, backend.sync());
            observer.queryKeymap(keys);
            observer.queryPointer(pointer);
            assertTrue(DesktopTool.keyDown(keys, backend.keyCodeOf(KEY_A)));
            assertTrue(DesktopTool.keyDown(keys, backend.keyCodeOfModifier(Modifier.CONTROL)));
            assertEquals(Button.RIGHT, pointer.buttons());
            assertEquals(Modifier.CONTROL, pointer.modifiers());
            assertEquals(Button.RIGHT, ledger.buttons());
            assertEquals(2, ledger.heldKeyCount());

            assertEquals(ResultCode.PLATFORM_OK, backend.releaseAll());
            observer.queryKeymap(keys);
            observer.queryPointer(pointer);
            assertTrue(DesktopTool.noKeyDown(keys), "no key held");
            assertEquals(0, pointer.buttons(), "no button held: " + pointer);
            assertFalse(DesktopTool.buttonDown(desktop, XTEST_POINTER, 3));
            assertTrue(ledger.isEmpty());
            assertEquals(0, ledger.activeLeaseId());
            assertEquals(HeldInputLedger.INITIAL_PHYSICAL_SEQUENCE + 1, ledger.physicalSequence());
        }
    }

    /**
     * The failure this guards against: the helper is SIGKILLed while holding input. The X server keeps the
     * XTest key and button down; another process maps the same ledger file, sees what is held and
     * releases it over its own connection, and undoes the helper's key code binding.
     */
    @Test
    @Timeout(60)
    void anotherProcessReleasesWhatAKilledHelperHeldFromTheMappedLedger(final TestDesktop desktop,
        @TempDir final Path dir) throws Exception {
        final File file = dir.resolve("ledger").toFile();
        final long offset = 4096 + 64; // anywhere 8-byte aligned: every field is relative to it
        final String keymapBefore = DesktopTool.run(desktop, "xmodmap", "-pke");
        final Process child = startChild(desktop, file, offset);
        try {
            final String line = awaitLine(child, "HELD");
            child.destroyForcibly();
            assertTrue(child.waitFor(10, TimeUnit.SECONDS), "child killed");

            try (XTestBackend releaser = XTestBackend.open(desktop.display());
                 MappedBytes mapped = MappedBytes.singleMappedBytes(file, 64 * 1024)) {
                final byte[] keys = new byte[32];
                final PointerState pointer = new PointerState();
                final int keyA = releaser.keyCodeOf(KEY_A);
                final int shift = releaser.keyCodeOfModifier(Modifier.SHIFT);
                releaser.queryKeymap(keys);
                releaser.queryPointer(pointer);
                assertTrue(DesktopTool.keyDown(keys, keyA), "X keeps the dead client's key down: " + line);
                assertTrue(DesktopTool.keyDown(keys, shift), "and its Shift");
                assertEquals(Button.LEFT, pointer.buttons(), "and its button");

                // A fresh flyweight over another mapping of the file, at the same offset...
                final HeldInputLedger ledger = new HeldInputLedger().wrap(mapped, offset);
                assertEquals(ResultCode.PLATFORM_OK, HeldInputLedger.validate(mapped, offset));
                assertTrue(ledger.isKeyHeld(keyA));
                assertEquals(shift, ledger.modifierKeyCode(Modifier.SHIFT));
                assertEquals(Modifier.SHIFT, ledger.modifiers());
                assertEquals(Button.LEFT, ledger.buttons());
                assertEquals(1, ledger.boundKeyCodeCount(), "é's spare key code");
                // ...and a stable copy moved to a different offset of another store reads the same.
                final HeldInputLedger copy = new HeldInputLedger()
                    .wrap(BytesStore.nativeStoreWithFixedCapacity(3 * HeldInputLedger.LENGTH), 2L * HeldInputLedger.LENGTH);
                assertTrue(ledger.copyStableTo(copy));
                assertEquals(ledger.toString(), copy.toString());

                assertEquals(ResultCode.PLATFORM_OK, dev.saccade.helper.LedgerRelease.releaseAll(ledger, releaser));
                releaser.queryKeymap(keys);
                releaser.queryPointer(pointer);
                assertTrue(DesktopTool.noKeyDown(keys), "no key held after release");
                assertEquals(0, pointer.buttons());
                assertEquals(0, pointer.modifiers());
                assertEquals(HeldInputLedger.INITIAL_PHYSICAL_SEQUENCE + 1, ledger.physicalSequence());
                assertTrue(ledger.isEmpty());
            }
            assertEquals(keymapBefore, DesktopTool.run(desktop, "xmodmap", "-pke"), "binding undone");
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static Process startChild(final TestDesktop desktop, final File file, final long offset) throws Exception {
        final List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.startsWith("-Dchronicle") || argument.startsWith("-Dorg.slf4j")) {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(LedgerHolderMain.class.getName());
        command.add(desktop.display());
        command.add(file.getPath());
        command.add(Long.toString(offset));
        return desktop.configure(new ProcessBuilder(command)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String awaitLine(final Process child, final String prefix) throws Exception {
        final CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                final BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
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
}
