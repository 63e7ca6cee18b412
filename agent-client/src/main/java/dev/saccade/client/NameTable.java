package dev.saccade.client;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One of the agent ABI's enumerations or bit sets as words (§2): the word of each value, once,
 * for the CLI's options, MCP's arguments and results, and PCP. Words are lower case with
 * {@code -}; {@link #valueOf} also takes the ABI's own spelling ({@code TEXT_FIELD}).
 */
public final class NameTable {
    /** What {@link #valueOf} answers for a word not in the table. */
    public static final int MISSING = Integer.MIN_VALUE;

    private final String[] words;
    private final int[] values;

    /** Words and their values, pairwise, in the table's order. */
    public NameTable(final String[] words, final int[] values) {
        if (words.length != values.length) {
            throw new IllegalArgumentException("words and values differ in length");
        }
        this.words = words.clone();
        this.values = values.clone();
    }

    /** The word of {@code value}, or null. */
    public String wordOf(final int value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return words[i];
            }
        }
        return null;
    }

    /** The word of {@code value}, or {@code fallback}. */
    public String wordOf(final int value, final String fallback) {
        final String word = wordOf(value);
        return word == null ? fallback : word;
    }

    /** The value of {@code word} (case ignored, {@code _} read as {@code -}), or {@link #MISSING}. */
    public int valueOf(final String word) {
        final String normalized = word.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (int i = 0; i < words.length; i++) {
            if (words[i].equals(normalized)) {
                return values[i];
            }
        }
        return MISSING;
    }

    /** The words, in the table's order. */
    public List<String> words() {
        return List.of(words);
    }

    /** The words of {@code values}, in that order (a help text's order, for example). */
    public String[] wordsOf(final int... someValues) {
        final String[] out = new String[someValues.length];
        for (int i = 0; i < someValues.length; i++) {
            out[i] = wordOf(someValues[i]);
            if (out[i] == null) {
                throw new IllegalArgumentException("no word for " + someValues[i]);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return Arrays.toString(words);
    }
}
