package dev.saccade.wayland;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which keysyms a layout gives, through the real libxkbcommon and this machine's xkb-data. */
class KeymapTest {
    @Test
    void theDefaultLayoutGivesItsOwnCharactersAtEveryLevelAndNoOthers() throws Exception {
        try (Keymap us = Keymap.standard()) {
            assertTrue(us.hasKeysym(Keymap.keysymOf('a')), "a, level 1");
            assertTrue(us.hasKeysym(Keymap.keysymOf('@')), "@, Shift's level");
            assertFalse(us.hasKeysym(Keymap.keysymOf('ж')), "Cyrillic is on no key of the default layout");
            assertEquals(-1, us.keyFor(Keymap.keysymOf('ж')));
            assertTrue(us.keyFor(Keymap.keysymOf('@')) > 0);
        }
    }
}
