package dev.saccade.cli;

import dev.saccade.client.NameTable;
import dev.saccade.protocol.Relation;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TextMatch;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The words of the command line for the ABI's enumerations and bit names (spec §2), e.g.
 * {@code text-field} for {@link Role#TEXT_FIELD}. Each table is a picocli converter (word to ABI
 * value) and the option's completion candidates, so the help text lists exactly the words the
 * parser accepts ({@code ${COMPLETION-CANDIDATES}}).
 *
 * <p>Words are matched ignoring case, with {@code _} read as {@code -}, so the ABI's own names
 * ({@code TEXT_FIELD}) work too. A bit-set option ({@code --require click,invoke}) splits on
 * commas and converts each word to its bit.
 */
final class AbiNames {
    private AbiNames() {
    }

    /** One table: words and the ABI value of each, in the order help lists them. */
    abstract static class WordTable implements ITypeConverter<Integer>, Iterable<String> {
        private final String[] words;
        private final int[] values;

        /** The shared table's words of {@code values}, in this (help) order. */
        WordTable(final NameTable table, final int... values) {
            this(table.wordsOf(values), values);
        }

        WordTable(final String[] words, final int[] values) {
            if (words.length != values.length) {
                throw new IllegalArgumentException("words and values differ in length");
            }
            this.words = words.clone();
            this.values = values.clone();
        }

        @Override
        public Integer convert(final String word) {
            final String normalized = word.trim().toLowerCase(Locale.ROOT).replace('_', '-');
            for (int i = 0; i < words.length; i++) {
                if (words[i].equals(normalized)) {
                    return values[i];
                }
            }
            throw new TypeConversionException("expected one of " + String.join(", ", words) + " but was '" + word + "'");
        }

        /** The word of an ABI value, or null. */
        String wordOf(final int value) {
            for (int i = 0; i < values.length; i++) {
                if (values[i] == value) {
                    return words[i];
                }
            }
            return null;
        }

        @Override
        public Iterator<String> iterator() {
            return Arrays.asList(words).iterator();
        }
    }

    /** {@code --scope}: which part of the scene a read covers (spec §5.3). */
    static final class ScopeKinds extends WordTable {
        ScopeKinds() {
            super(dev.saccade.client.AbiNames.SCOPE_KINDS, ScopeKind.DESKTOP, ScopeKind.ACTIVE_WINDOW, ScopeKind.DISPLAY,
                ScopeKind.RECT, ScopeKind.WINDOW);
        }
    }

    /** {@code --source}: which sources' targets a read keeps (spec §5.3). */
    static final class SourceModes extends WordTable {
        SourceModes() {
            super(dev.saccade.client.AbiNames.SOURCE_MODES, SourceMode.FUSED, SourceMode.PIXEL, SourceMode.SEMANTIC,
                SourceMode.GRID);
        }
    }

    /** {@code --role}. */
    static final class Roles extends WordTable {
        Roles() {
            super(dev.saccade.client.AbiNames.ROLES, Role.BUTTON, Role.LINK, Role.TEXT, Role.TEXT_FIELD, Role.CHECKBOX,
                Role.RADIO, Role.MENU_ITEM, Role.SLIDER, Role.IMAGE, Role.WINDOW, Role.LIST_ITEM, Role.TREE_ITEM, Role.TAB,
                Role.MENU, Role.MENU_BAR, Role.COMBO_BOX, Role.TOGGLE, Role.SPIN_BUTTON, Role.TABLE_CELL, Role.LABEL,
                Role.DIALOG, Role.PROGRESS_BAR, Role.SCROLL_BAR, Role.TOOL_BAR, Role.LIST, Role.SCROLL_PANE, Role.TAB_LIST,
                Role.HEADING, Role.LANDMARK, Role.UNKNOWN);
        }
    }

    /** {@code --match}: how {@code --text} compares (raw UTF-8 bytes, case-sensitive; spec §5.6). */
    static final class TextMatches extends WordTable {
        TextMatches() {
            super(dev.saccade.client.AbiNames.TEXT_MATCHES, TextMatch.EXACT, TextMatch.PREFIX, TextMatch.SUBSTRING);
        }
    }

    /**
     * {@code --relation}: how a kept target relates to {@code --related} (spec §5.6). NEAREST is
     * left out: this version of the service rejects it (ACTION_UNSUPPORTED).
     */
    static final class Relations extends WordTable {
        Relations() {
            super(dev.saccade.client.AbiNames.RELATIONS, Relation.SELF, Relation.PARENT, Relation.CHILD, Relation.ANCESTOR,
                Relation.DESCENDANT, Relation.SIBLING, Relation.CONTAINS, Relation.CONTAINED_BY);
        }
    }

    /** {@code --require} / {@code --forbid}: one target capability bit per word. */
    static final class TargetCapabilities extends WordTable {
        TargetCapabilities() {
            super(dev.saccade.client.AbiNames.TARGET_CAPABILITIES, TargetCapability.POINTER_MOVE, TargetCapability.CLICK,
                TargetCapability.SCROLL, TargetCapability.DRAG_SOURCE, TargetCapability.DROP_TARGET, TargetCapability.TEXT,
                TargetCapability.INVOKE, TargetCapability.WINDOW_ACTIVATE, TargetCapability.TEXT_SELECT,
                TargetCapability.KEYBOARD);
        }
    }

    /** {@code --sources}: one source bit per word. */
    static final class SourceBits extends WordTable {
        SourceBits() {
            super(dev.saccade.client.AbiNames.SOURCE_BITS, SourceBit.NEURAL, SourceBit.ACCESSIBILITY, SourceBit.PIXEL,
                SourceBit.GRID);
        }
    }
}
