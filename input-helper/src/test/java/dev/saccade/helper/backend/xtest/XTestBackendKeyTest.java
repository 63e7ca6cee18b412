package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.helper.backend.PointerState;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@WithTestDesktop
class XTestBackendKeyTest {
    private static final int CAPS_LOCK = 0x39;

    /** spec §5.10's accepted HID keyboard-page usages. */
    static boolean accepted(final int usage) {
        return usage >= 0x04 && usage <= 0x31 || usage >= 0x33 && usage <= 0x52 || usage >= 0xE0 && usage <= 0xE7;
    }

    @Test
    @Timeout(60)
    void everyAcceptedUsageMapsToADistinctKeyAndOthersAreUnsupported(final TestDesktop desktop) throws Exception {
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            final Set<Integer> keyCodes = new HashSet<>();
            int acceptedCount = 0;
            for (int usage = 0; usage <= 0x1FF; usage++) {
                final int keyCode = backend.keyCodeOf(usage);
                if (accepted(usage)) {
                    acceptedCount++;
                    assertTrue(keyCode >= 8 && keyCode <= 255, "usage 0x" + Integer.toHexString(usage) + " -> " + keyCode);
                    assertTrue(keyCodes.add(keyCode), "usage 0x" + Integer.toHexString(usage) + " shares key code " + keyCode);
                } else {
                    assertEquals(ResultCode.PLATFORM_UNSUPPORTED, keyCode, "usage 0x" + Integer.toHexString(usage));
                    assertEquals(ResultCode.PLATFORM_UNSUPPORTED, backend.key(usage, true), "no event for 0x" + Integer.toHexString(usage));
                }
            }
            assertEquals(0x31 - 0x04 + 1 + 0x52 - 0x33 + 1 + 8, acceptedCount);
            assertEquals(ResultCode.PLATFORM_UNSUPPORTED, backend.keyCodeOf(-1));
        }
    }

    @Test
    @Timeout(60)
    void everyAcceptedKeyShowsInXQueryKeymapWhileHeldAndNotAfterRelease(final TestDesktop desktop) throws Exception {
        try (XTestBackend backend = XTestBackend.open(desktop.display());
             XTestBackend observer = XTestBackend.open(desktop.display())) {
            backend.movePointer(5, 5); // over the bare desktop: no app gets the keys
            final byte[] keys = new byte[32];
            for (int usage = 0; usage <= 0xFF; usage++) {
                if (!accepted(usage)) {
                    continue;
                }
                final int keyCode = backend.keyCodeOf(usage);
                assertEquals(ResultCode.PLATFORM_OK, backend.key(usage, true));
                assertEquals(ResultCode.PLATFORM_OK, backend.sync());
                assertEquals(ResultCode.PLATFORM_OK, observer.queryKeymap(keys));
                assertTrue(DesktopTool.keyDown(keys, keyCode), "usage 0x" + Integer.toHexString(usage) + " held");

                assertEquals(ResultCode.PLATFORM_OK, backend.key(usage, false));
                assertEquals(ResultCode.PLATFORM_OK, backend.sync());
                assertEquals(ResultCode.PLATFORM_OK, observer.queryKeymap(keys));
                assertTrue(DesktopTool.noKeyDown(keys), "nothing held after releasing 0x" + Integer.toHexString(usage));
                if (usage == CAPS_LOCK) { // a lock: the second press turns it off again
                    backend.key(usage, true);
                    backend.key(usage, false);
                    backend.sync();
                }
            }
        }
    }

    @Test
    @Timeout(30)
    void modifiersGoDownInSpecOrderAndShowInThePointerState(final TestDesktop desktop) throws Exception {
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            final PointerState state = new PointerState();
            final byte[] keys = new byte[32];
            backend.movePointer(5, 5);
            assertEquals(ResultCode.PLATFORM_OK, backend.modifiers(Modifier.ALL, true));
            assertEquals(ResultCode.PLATFORM_OK, backend.sync());
            backend.queryPointer(state);
            assertEquals(Modifier.ALL, state.modifiers(), "XQueryPointer state of " + state);
            backend.queryKeymap(keys);
            for (final int bit : new int[] {Modifier.SHIFT, Modifier.CONTROL, Modifier.ALT, Modifier.META}) {
                assertTrue(DesktopTool.keyDown(keys, backend.keyCodeOfModifier(bit)), "modifier 0x" + bit + " held");
            }
            assertEquals(ResultCode.PLATFORM_OK, backend.modifiers(Modifier.ALL, false));
            assertEquals(ResultCode.PLATFORM_OK, backend.sync());
            backend.queryPointer(state);
            assertEquals(0, state.modifiers());
            backend.queryKeymap(keys);
            assertTrue(DesktopTool.noKeyDown(keys));
            assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, backend.modifiers(0x10, true));
            assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, backend.keyCodeOfModifier(Modifier.SHIFT | Modifier.ALT));
            assertFalse(backend.keyCodeOfModifier(Modifier.META) < 0);
        }
    }
}
