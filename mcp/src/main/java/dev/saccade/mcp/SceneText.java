package dev.saccade.mcp;

import dev.saccade.client.AbiNames;
import dev.saccade.client.NameTable;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.GenerationFlyweight;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeFlyweight;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text block of an observe or query result (mcp.md §8 "The text view"): what a model reads.
 * The generation and epochs once, then one line per target, grouped under its window's line:
 * id, role word, text, pixel bounds, the act kinds it accepts, and the flags that stop an action
 * (disabled, occluded, secure). Unnamed targets that accept nothing are counted, not listed;
 * grid cells are summarised (one query by their label finds any). The whole view is at most
 * {@code maximumBytes} UTF-8 bytes: past the bound the remaining lines are counted instead.
 * Words come from tables ({@link AbiNames}, {@link #ACTIONS}, {@link #FLAGS}): a new role, state
 * or capability needs only an entry there.
 */
final class SceneText {
    /** The default bound: an active-window view of a large application fits in it. */
    static final int DEFAULT_MAXIMUM_BYTES = 8_192;
    static final int MIN_MAXIMUM_BYTES = 512;
    static final int MAX_MAXIMUM_BYTES = 1_048_576;
    /** Longest target text shown, in code points; longer text ends in "…". */
    static final int MAX_TEXT_CODE_POINTS = 80;

    /** Capability bits as the act kind that uses them (mcp §7 kind names); POINTER_MOVE is implied. */
    static final NameTable ACTIONS = new NameTable(
        new String[] {"click", "scroll", "drag", "drop", "text", "invoke", "window", "text-select"},
        new int[] {TargetCapability.CLICK, TargetCapability.SCROLL, TargetCapability.DRAG_SOURCE,
            TargetCapability.DROP_TARGET, TargetCapability.TEXT, TargetCapability.INVOKE,
            TargetCapability.WINDOW_ACTIVATE, TargetCapability.TEXT_SELECT});

    /** Target flags a model must know before it acts (an action on such a target is refused). */
    static final NameTable FLAGS = new NameTable(
        new String[] {"disabled", "occluded", "secure", "text-redacted", "background", "needs-activation",
            "not-in-background"},
        new int[] {TargetFlag.DISABLED, TargetFlag.OCCLUDED, TargetFlag.SECURE, TargetFlag.TEXT_REDACTED,
            TargetFlag.BACKGROUND_ACTIONABLE, TargetFlag.ACTIVATION_REQUIRED, TargetFlag.BACKGROUND_UNSUPPORTED});

    private static final int ACTION_BITS = TargetCapability.CLICK | TargetCapability.SCROLL
        | TargetCapability.DRAG_SOURCE | TargetCapability.DROP_TARGET | TargetCapability.TEXT
        | TargetCapability.INVOKE | TargetCapability.WINDOW_ACTIVATE | TargetCapability.TEXT_SELECT;

    /** The argument that sets the bound (observe and query, mcp.md §5, §6). */
    static final String ARGUMENT = "maximumTextBytes";
    static final String INVALID_ARGUMENT = "maximumTextBytes is out of range";

    /** The bound {@code a} asks for, the default when absent, or −1 when it is unreadable or out of range. */
    static int maximumBytes(final ToolArguments a) {
        final int status = a.u32(ARGUMENT);
        if (status == ToolArguments.ABSENT) {
            return DEFAULT_MAXIMUM_BYTES;
        }
        if (status == ToolArguments.INVALID || a.value() < MIN_MAXIMUM_BYTES || a.value() > MAX_MAXIMUM_BYTES) {
            return -1;
        }
        return (int) a.value();
    }

    private final TargetFlyweight target = new TargetFlyweight();
    private final StringBuilder out = new StringBuilder(DEFAULT_MAXIMUM_BYTES);
    private final StringBuilder line = new StringBuilder(256);
    private int bytes;
    private int bound;
    /** Grid cells of the completion being rendered, once counted; −1 before. */
    private int gridCellsCounted;

    /** The view of an OK read completion whose records {@link ToolResults#renderable} accepted. */
    String render(final CompletionFlyweight c, final int maximumBytes) {
        out.setLength(0);
        bytes = 0;
        bound = maximumBytes;
        gridCellsCounted = -1;
        final GenerationFlyweight g = c.generation();
        final long count = c.targetCount();
        final ScopeFlyweight s = c.scope();
        final int completionFlags = c.header().flags();
        line.setLength(0);
        line.append("generation ").append(Long.toUnsignedString(g.generation()))
            .append(" (epochs: scene ").append(Long.toUnsignedString(g.sceneEpoch()))
            .append(", transform ").append(Long.toUnsignedString(g.transformEpoch()))
            .append(", permission ").append(Long.toUnsignedString(g.permissionEpoch()))
            .append(", topology ").append(Long.toUnsignedString(g.topologyEpoch())).append(')');
        emit();
        line.setLength(0);
        line.append("scope ").append(AbiNames.SCOPE_KINDS.wordOf(s.kind(), "unknown"));
        if (s.stableId() != 0) {
            line.append(' ').append(Long.toUnsignedString(s.stableId()));
        }
        line.append(", ").append(count).append(count == 1 ? " target" : " targets");
        if ((completionFlags & AgentAbi.FLAG_TRUNCATED) != 0) {
            line.append(", truncated: more matched (raise maximumTargets or narrow the scope)");
        }
        if ((completionFlags & AgentAbi.FLAG_SOURCE_INCOMPLETE) != 0) {
            line.append(", source incomplete: some applications are still being read");
        }
        line.append("; bounds are pixels x,y wxh");
        emit();

        // Windows by id, in the order they (or their first target) appear; the WINDOW target's text is the title.
        final Map<Long, List<Integer>> groups = new LinkedHashMap<>();
        final Map<Long, Integer> windowTargets = new HashMap<>();
        int gridCells = 0;
        int gridIndex = -1;
        int silent = 0;
        for (int i = 0; i < count; i++) {
            final TargetFlyweight t = at(c, i);
            if (isGridCell(t) && gridCellCount(c, count) > LISTED_GRID_CELLS) {
                if (gridCells++ == 0) {
                    gridIndex = i;
                }
                continue;
            }
            if (t.role() == Role.WINDOW && !windowTargets.containsKey(t.windowId())) {
                windowTargets.put(t.windowId(), i);
                groups.computeIfAbsent(t.windowId(), k -> new ArrayList<>());
                continue;
            }
            if (t.textSize() == 0 && (t.capabilityBits() & ACTION_BITS) == 0 && t.role() != Role.LANDMARK) {
                // (a page's regions are listed even unnamed: where the navigation and main content are, D53)
                silent++;
                continue;
            }
            groups.computeIfAbsent(t.windowId(), k -> new ArrayList<>()).add(i);
        }
        int shown = 0;
        int omitted = 0;
        for (final Map.Entry<Long, List<Integer>> group : groups.entrySet()) {
            final long windowId = group.getKey();
            final Integer window = windowTargets.get(windowId);
            line.setLength(0);
            if (window != null) {
                targetLine(c, at(c, window), "");
            } else if (windowId == 0) {
                line.append("outside any window:");
            } else {
                line.append("window ").append(Long.toUnsignedString(windowId)).append(" (not in this result):");
            }
            if (!fits()) {
                omitted += group.getValue().size() + (window != null ? 1 : 0);
                continue;
            }
            emit();
            shown += window != null ? 1 : 0;
            for (final int i : group.getValue()) {
                line.setLength(0);
                targetLine(c, at(c, i), "  ");
                if (fits()) {
                    emit();
                    shown++;
                } else {
                    omitted++;
                }
            }
        }
        if (gridCells != 0) {
            final TargetFlyweight t = at(c, gridIndex);
            line.setLength(0);
            line.append(gridCells).append(" grid cells of about ").append(pixels(t.boundsWidthQ8())).append('x')
                .append(pixels(t.boundsHeightQ8()))
                .append(" (not listed; label r<row>c<column> from r0c0 at the top left: saccade_query text 'r2c3')");
            if (fits()) {
                emit();
            } else {
                omitted += gridCells;
            }
        }
        if (gridCells == 0 && gridCellCount(c, count) == 0 && s.kind() == ScopeKind.ACTIVE_WINDOW
            && (s.sourceMode() == 0 || s.sourceMode() == SourceMode.FUSED) && hasSemantic(c, count)) {
            // D22: the service left this window's grid cells out; say how to get one
            line.setLength(0);
            line.append("grid cells are left out of an active window with accessible targets:"
                + " saccade_query text 'r2c3' finds one (label r<row>c<column> from r0c0 at the top left)");
            if (fits()) {
                emit();
            }
        }
        if (silent != 0) {
            line.setLength(0);
            line.append(silent).append(" unnamed targets without actions not listed");
            if (fits()) {
                emit();
            }
        }
        if (omitted != 0) {
            line.setLength(0);
            line.append("… ").append(omitted).append(" more targets not shown (").append(shown)
                .append(" shown): raise maximumTextBytes (").append(maximumBytes)
                .append(") or narrow the scope or query");
            emit(); // the reserve made room for it
        }
        return out.toString();
    }

    /** Room kept below the bound for the closing "… more targets not shown" line. */
    static final int CLOSING_RESERVE = 160;

    /** Whether {@link #line} and its newline fit, leaving room for the closing line. */
    private boolean fits() {
        return bytes + utf8Length(line) + 1 <= bound - CLOSING_RESERVE;
    }

    private void emit() {
        bytes += utf8Length(line) + (out.length() == 0 ? 0 : 1);
        if (out.length() != 0) {
            out.append('\n');
        }
        out.append(line);
    }

    private static int utf8Length(final CharSequence s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            final char ch = s.charAt(i);
            if (ch < 0x80) {
                n++;
            } else if (ch < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(ch)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    private TargetFlyweight at(final CompletionFlyweight c, final long i) {
        return target.wrap(c.bytes(), c.offset() + c.targetsOffset() + i * TargetFlyweight.LENGTH);
    }

    /** Up to this many grid cells (a query for one, say) are listed like any target; more are summarised. */
    static final int LISTED_GRID_CELLS = 8;

    private int gridCellCount(final CompletionFlyweight c, final long count) {
        if (gridCellsCounted < 0) {
            int n = 0;
            for (int i = 0; i < count; i++) {
                n += isGridCell(at(c, i)) ? 1 : 0;
            }
            gridCellsCounted = n;
        }
        return gridCellsCounted;
    }

    private boolean hasSemantic(final CompletionFlyweight c, final long count) {
        for (int i = 0; i < count; i++) {
            if ((at(c, i).sourceBits() & SourceBit.ACCESSIBILITY) != 0) {
                return true;
            }
        }
        return false;
    }

    /** A grid source's cell: only the GRID source bit, no role, a label as text. */
    private static boolean isGridCell(final TargetFlyweight t) {
        return t.sourceBits() == SourceBit.GRID && t.role() == Role.UNKNOWN;
    }

    /** {@code <indent><id> <role> "<text>" x,y wxh <actions> <flags>} into {@link #line}. */
    private void targetLine(final CompletionFlyweight c, final TargetFlyweight t, final String indent) {
        line.append(indent).append(Long.toUnsignedString(t.targetId())).append(' ')
            .append(AbiNames.ROLES.wordOf(t.role(), "unknown"));
        if (t.textSize() != 0) {
            line.append(" \"");
            quoted(c, t);
            line.append('"');
        }
        line.append(' ').append(pixels(t.boundsXQ8())).append(',').append(pixels(t.boundsYQ8())).append(' ')
            .append(pixels(t.boundsWidthQ8())).append('x').append(pixels(t.boundsHeightQ8()));
        words(ACTIONS, t.capabilityBits());
        words(FLAGS, t.flags());
        if ((t.flags() & TargetFlag.ACTIONABLE) == 0 && (t.capabilityBits() & ACTION_BITS) != 0) {
            line.append(" not-actionable");
        }
        // what a model needs to tell whether its click took: checked, selected, focused, ...
        words(AbiNames.STATES, t.states());
    }

    private void quoted(final CompletionFlyweight c, final TargetFlyweight t) {
        final byte[] raw = new byte[(int) t.textSize()];
        c.bytes().read(c.offset() + t.textOffset(), raw, 0, raw.length);
        final String text = new String(raw, StandardCharsets.UTF_8);
        int points = 0;
        for (int i = 0; i < text.length(); ) {
            final int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (++points > MAX_TEXT_CODE_POINTS) {
                line.append('…');
                return;
            }
            switch (cp) {
                case '"':
                    line.append("\\\"");
                    break;
                case '\\':
                    line.append("\\\\");
                    break;
                case '\n':
                    line.append("\\n");
                    break;
                case '\t':
                    line.append("\\t");
                    break;
                default:
                    if (cp < 0x20) {
                        line.append(' ');
                    } else {
                        line.appendCodePoint(cp);
                    }
            }
        }
        if ((t.flags() & TargetFlag.TEXT_TRUNCATED) != 0) {
            line.append('…');
        }
    }

    private void words(final NameTable table, final int bits) {
        for (int rest = bits; rest != 0; rest &= rest - 1) {
            final String word = table.wordOf(Integer.lowestOneBit(rest));
            if (word != null) {
                line.append(' ').append(word);
            }
        }
    }

    /** Q8 to whole pixels, rounded to nearest. */
    static long pixels(final long q8) {
        return Math.floorDiv(q8 + 128, 256);
    }
}
