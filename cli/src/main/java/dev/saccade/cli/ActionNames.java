package dev.saccade.cli;

import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import picocli.CommandLine.TypeConversionException;

/**
 * The words of {@code saccade act} for action kinds, buttons, modifiers and keys (spec §2,
 * §5.10), as {@link AbiNames.WordTable}s: matched ignoring case with {@code _} read as
 * {@code -}, so the ABI's own spelling ({@code POINTER_HOVER}, {@code KEY_CHORD}) works too.
 * A few tables accept aliases ({@code hover} for {@code pointer-hover}, {@code ctrl} for
 * {@code control}); help lists only the main words.
 */
final class ActionNames {
    private ActionNames() {
    }

    /** A table whose first {@code shown} words are listed in help; the rest are aliases. */
    abstract static class AliasedTable extends AbiNames.WordTable {
        private final String[] shown;

        AliasedTable(final String[] words, final int[] values, final int shown) {
            super(words, values);
            this.shown = Arrays.copyOf(words, shown);
        }

        @Override
        public Iterator<String> iterator() {
            return Arrays.asList(shown).iterator();
        }
    }

    /** {@code KIND} of {@code saccade act}: the sixteen action kinds (spec §5.8). */
    static final class Kinds extends AliasedTable {
        Kinds() {
            super(new String[] {"pointer-move", "hover", "click", "invoke", "hold", "drag-drop", "scroll", "key",
                "text", "window-activate", "release", "text-select", "key-chord", "window-cycle", "abort",
                "query-physical-state", "pointer-hover"},
                new int[] {ActionKind.POINTER_MOVE, ActionKind.POINTER_HOVER, ActionKind.CLICK, ActionKind.INVOKE,
                    ActionKind.HOLD, ActionKind.DRAG_DROP, ActionKind.SCROLL, ActionKind.KEY, ActionKind.TEXT,
                    ActionKind.WINDOW_ACTIVATE, ActionKind.RELEASE, ActionKind.TEXT_SELECT, ActionKind.KEY_CHORD,
                    ActionKind.WINDOW_CYCLE, ActionKind.ABORT, ActionKind.QUERY_PHYSICAL_STATE,
                    ActionKind.POINTER_HOVER},
                16);
        }
    }

    /** {@code --button}: exactly one pointer button. */
    static final class Buttons extends AbiNames.WordTable {
        Buttons() {
            super(new String[] {"left", "right", "middle"}, new int[] {Button.LEFT, Button.RIGHT, Button.MIDDLE});
        }
    }

    /** {@code --expect-buttons}: buttons held, one bit per word; {@code none} adds nothing. */
    static final class HeldButtons extends AbiNames.WordTable {
        HeldButtons() {
            super(new String[] {"left", "right", "middle", "none"},
                new int[] {Button.LEFT, Button.RIGHT, Button.MIDDLE, 0});
        }
    }

    /** {@code --modifiers}: one modifier bit per word. */
    static final class Modifiers extends AliasedTable {
        Modifiers() {
            super(new String[] {"shift", "control", "alt", "meta", "ctrl", "super"},
                new int[] {Modifier.SHIFT, Modifier.CONTROL, Modifier.ALT, Modifier.META, Modifier.CONTROL,
                    Modifier.META},
                4);
        }
    }

    /** {@code --expect-modifiers}: as {@link Modifiers}, plus {@code none}. */
    static final class HeldModifiers extends AliasedTable {
        HeldModifiers() {
            super(new String[] {"shift", "control", "alt", "meta", "none", "ctrl", "super"},
                new int[] {Modifier.SHIFT, Modifier.CONTROL, Modifier.ALT, Modifier.META, 0, Modifier.CONTROL,
                    Modifier.META},
                5);
        }
    }

    /**
     * {@code --key}: a USB HID keyboard-page usage (spec §5.10), by name or number. Names first, so
     * a single digit is the digit key ({@code 1} is usage 0x1E); then a number, hex with
     * {@code 0x} or decimal, 1..0xFFFF. A number outside §5.10's list is sent as given and the
     * service answers ACTION_UNSUPPORTED, which is how a caller learns it.
     */
    static final class KeyUsages extends AliasedTable {
        /** Largest usage id of a HID page (ids are 16 bits). */
        static final int MAX_USAGE = 0xFFFF;
        /** The names, as help shows them. */
        static final String SUMMARY = "a..z, 0..9, enter, escape, backspace, tab, space, minus, equals,"
            + " left-bracket, right-bracket, backslash, semicolon, quote, grave, comma, period, slash, caps-lock,"
            + " f1..f12, print-screen, scroll-lock, pause, insert, home, page-up, delete, end, page-down, right,"
            + " left, down, up, left-control, left-shift, left-alt, left-meta, right-control, right-shift,"
            + " right-alt, right-meta";

        private static final String[] NAMED = {"enter", "escape", "backspace", "tab", "space", "minus", "equals",
            "left-bracket", "right-bracket", "backslash"};
        private static final String[] PUNCTUATION = {"semicolon", "quote", "grave", "comma", "period", "slash",
            "caps-lock"};
        private static final String[] NAVIGATION = {"print-screen", "scroll-lock", "pause", "insert", "home",
            "page-up", "delete", "end", "page-down", "right", "left", "down", "up"};
        private static final String[] MODIFIER_KEYS = {"left-control", "left-shift", "left-alt", "left-meta",
            "right-control", "right-shift", "right-alt", "right-meta"};
        private static final String[] ALIASES = {"return", "esc", "del", "pgup", "pgdn"};
        private static final int[] ALIAS_USAGES = {0x28, 0x29, 0x4C, 0x4B, 0x4E};
        private static final int LETTERS = 26;
        private static final int DIGITS = 10;
        private static final int F_KEYS = 12;
        private static final int MAIN_WORDS =
            LETTERS + DIGITS + NAMED.length + PUNCTUATION.length + F_KEYS + NAVIGATION.length + MODIFIER_KEYS.length;

        KeyUsages() {
            super(words(), usages(), MAIN_WORDS);
        }

        @Override
        public Integer convert(final String word) {
            try {
                return super.convert(word);
            } catch (final TypeConversionException notAName) {
                return number(word);
            }
        }

        private static int number(final String word) {
            final String text = word.trim().toLowerCase(Locale.ROOT);
            long value = -1;
            try {
                if (text.startsWith("0x") && text.length() > 2) {
                    value = Long.parseLong(text.substring(2), 16);
                } else if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    value = Long.parseLong(text);
                }
            } catch (final NumberFormatException tooLong) {
                value = -1;
            }
            if (value < 1 || value > MAX_USAGE) {
                throw new TypeConversionException("expected a key name (" + SUMMARY + ") or a HID keyboard usage"
                    + " 0x1..0xFFFF (hex with 0x, or decimal) but was '" + word + "'");
            }
            return (int) value;
        }

        /** Words in the order of {@link #usages()}: main words first, aliases last. */
        private static String[] words() {
            final String[] words = new String[MAIN_WORDS + ALIASES.length];
            int n = 0;
            for (int i = 0; i < LETTERS; i++) {
                words[n++] = String.valueOf((char) ('a' + i));
            }
            for (int i = 1; i <= DIGITS; i++) {
                words[n++] = String.valueOf(i % DIGITS); // 1..9, then 0: the order of the usages
            }
            for (final String name : NAMED) {
                words[n++] = name;
            }
            for (final String name : PUNCTUATION) {
                words[n++] = name;
            }
            for (int i = 1; i <= F_KEYS; i++) {
                words[n++] = "f" + i;
            }
            for (final String name : NAVIGATION) {
                words[n++] = name;
            }
            for (final String name : MODIFIER_KEYS) {
                words[n++] = name;
            }
            for (final String alias : ALIASES) {
                words[n++] = alias;
            }
            return words;
        }

        /** §5.10: 0x04–0x1D A–Z, 0x1E–0x27 1–0, 0x28–0x31, 0x33–0x39, 0x3A–0x45 F1–F12, 0x46–0x52, 0xE0–0xE7. */
        private static int[] usages() {
            final int[] usages = new int[MAIN_WORDS + ALIASES.length];
            int n = 0;
            for (int i = 0; i < LETTERS; i++) {
                usages[n++] = 0x04 + i;
            }
            for (int i = 0; i < DIGITS; i++) {
                usages[n++] = 0x1E + i;
            }
            for (int i = 0; i < NAMED.length; i++) {
                usages[n++] = 0x28 + i;
            }
            for (int i = 0; i < PUNCTUATION.length; i++) {
                usages[n++] = 0x33 + i; // 0x32 (non-US #) is not accepted (§5.10)
            }
            for (int i = 0; i < F_KEYS; i++) {
                usages[n++] = 0x3A + i;
            }
            for (int i = 0; i < NAVIGATION.length; i++) {
                usages[n++] = 0x46 + i;
            }
            for (int i = 0; i < MODIFIER_KEYS.length; i++) {
                usages[n++] = 0xE0 + i;
            }
            for (final int usage : ALIAS_USAGES) {
                usages[n++] = usage;
            }
            return usages;
        }
    }
}
