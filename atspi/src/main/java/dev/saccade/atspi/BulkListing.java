package dev.saccade.atspi;

import static dev.saccade.atspi.AtspiMapping.S_SHOWN;
import static dev.saccade.atspi.ReplyKind.K_CHAR_COUNT;
import static dev.saccade.atspi.ReplyKind.K_EARLY_CHAR_COUNT;
import static dev.saccade.atspi.ReplyKind.K_EARLY_EXTENTS;
import static dev.saccade.atspi.ReplyKind.K_EARLY_PROPERTIES;
import static dev.saccade.atspi.ReplyKind.K_EARLY_STATE;
import static dev.saccade.atspi.ReplyKind.K_EXTENTS;
import static dev.saccade.atspi.ReplyKind.K_MATCH_ALL;
import static dev.saccade.atspi.ReplyKind.K_MATCH_INTERFACE;
import static dev.saccade.atspi.ReplyKind.K_MATCH_RARE;
import static dev.saccade.atspi.ReplyKind.K_MATCH_ROLE;
import static dev.saccade.atspi.ReplyKind.K_MATCH_STATE;
import static dev.saccade.atspi.ReplyKind.K_PROPERTIES;
import static dev.saccade.atspi.ReplyKind.K_STATE;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.TargetFlag;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.freedesktop.dbus.types.UInt32;

/**
 * The bulk listing stage of a refresh, for applications with {@code Collection} (at-spi2-atk):
 * one batch of {@code GetMatches} that lists every object in canonical order and answers role
 * class, states and interfaces for all of them at once (see {@link AppRefresh}), with the last
 * refresh's objects asked for their details in the same batch. Fills the refresh's
 * {@link DraftTree}; source thread only.
 */
final class BulkListing {
    private static final Object[] EMPTY_RULE = matchRule(new int[0], new int[0], new String[0]);
    private static final Object[][] ROLE_RULES = new Object[AtspiMapping.ROLE_CLASS_BITS][];
    private static final Object[][] STATE_RULES = new Object[AtspiMapping.FIRST_RARE_STATE_SET][];
    /** Any of the rare states (AtspiMapping#FIRST_RARE_STATE_SET on): one walk of the tree in the application instead of seven. */
    private static final Object[] RARE_RULE;
    private static final Object[][] INTERFACE_RULES = new Object[AtspiMapping.INTERFACE_RULE_NAMES.length][];

    static {
        for (int b = 0; b < ROLE_RULES.length; b++) {
            ROLE_RULES[b] = matchRule(new int[0], AtspiMapping.roleCodeBits(b), new String[0]);
        }
        for (int s = 0; s < STATE_RULES.length; s++) {
            STATE_RULES[s] = matchRule(AtspiMapping.stateBits(AtspiMapping.STATE_SETS[s]), new int[0], new String[0]);
        }
        final int[] rareStates = Arrays.stream(AtspiMapping.STATE_SETS, AtspiMapping.FIRST_RARE_STATE_SET,
            AtspiMapping.STATE_SETS.length).flatMapToInt(Arrays::stream).toArray();
        RARE_RULE = matchRule(AtspiMapping.stateBits(rareStates), AtspiMapping.MATCH_ANY, new int[0], new String[0]);
        for (int i = 0; i < INTERFACE_RULES.length; i++) {
            INTERFACE_RULES[i] = matchRule(new int[0], new int[0], new String[] {AtspiMapping.INTERFACE_RULE_NAMES[i]});
        }
    }

    /** {@link #askUnder}: the replies of one root are numbered from its ordinal times this (more than any rule set). */
    static final int SUBTREE_STRIDE = 32;

    private final KnownApp app;
    private final CallChannel channel;
    private final DraftTree tree;
    private final int maxNodes;
    private final int maxTextChars;
    /** The last refresh's nodes the early details were asked for, by position. */
    private List<AccessibilityNode> earlyFrom = List.of();
    /** Which drafts got which detail early (null: none asked). */
    private boolean[] haveProperties;
    private boolean[] haveExtents;
    private boolean[] haveCharCount;
    private boolean[] haveState;

    BulkListing(
        final KnownApp app, final CallChannel channel, final DraftTree tree, final int maxNodes, final int maxTextChars) {
        this.app = app;
        this.channel = channel;
        this.tree = tree;
        this.maxNodes = maxNodes;
        this.maxTextChars = maxTextChars;
    }

    /** Adds the listing's calls to {@code batch}: the matches, and the early details. */
    void ask(final CallBatch batch) {
        final int count = maxNodes + 1;
        matches(batch, K_MATCH_ALL, 0, EMPTY_RULE, count);
        for (int c = 0; c < ROLE_RULES.length; c++) {
            matches(batch, K_MATCH_ROLE, c, ROLE_RULES[c], count);
        }
        for (int s = 0; s < STATE_RULES.length; s++) {
            matches(batch, K_MATCH_STATE, s, STATE_RULES[s], count);
        }
        matches(batch, K_MATCH_RARE, 0, RARE_RULE, count);
        for (int i = 0; i < INTERFACE_RULES.length; i++) {
            matches(batch, K_MATCH_INTERFACE, i, INTERFACE_RULES[i], count);
        }
        // Trees rarely change between refreshes: ask the last refresh's objects for their details
        // now, in the same batch, instead of one round trip later. Objects gone since answer
        // UnknownObject and are ignored; new ones are asked after the listing.
        final List<AccessibilityNode> last = app.nodes;
        final byte[] view = app.nodesView;
        for (int j = 0, n = Math.min(last.size(), maxNodes); j < n; j++) {
            final AccessibilityNode node = last.get(j);
            if (!tree.neededDetails(view, j)) {
                continue; // hidden last time: left out of the scene with all in it (DraftTree.needsDetails)
            }
            channel.call(batch, node.objectPath(), AtspiBus.PROPERTIES, "GetAll", "s", K_EARLY_PROPERTIES, j,
                AtspiBus.ACCESSIBLE);
            if (DraftTree.had(view, j, DraftTree.RARE_LAST, false)) {
                channel.call(batch, node.objectPath(), AtspiBus.ACCESSIBLE, "GetState", null, K_EARLY_STATE, j);
            }
            // Every object that showed, off screen or not (rows scrolled out of a list are asked
            // here, not one round trip later), but not what lies inside one off screen last time:
            // that waits for the outer object's extents, asked here, and is asked only if it came
            // back (AppRefresh.sendDetails).
            if (!DraftTree.had(view, j, DraftTree.INSIDE_HIDDEN_LAST, false)) {
                channel.call(batch, node.objectPath(), AtspiBus.COMPONENT, "GetExtents", "u", K_EARLY_EXTENTS, j,
                    new UInt32(0));
            }
            if (AtspiMapping.readsContentRole(node.role()) && !node.hasFlag(TargetFlag.SECURE)
                && maxTextChars > 0) {
                channel.call(batch, node.objectPath(), AtspiBus.PROPERTIES, "Get", "ss", K_EARLY_CHAR_COUNT, j,
                    AtspiBus.TEXT, "CharacterCount");
            }
        }
        earlyFrom = last;
    }

    private Reply matches(final CallBatch batch, final int kind, final int index, final Object[] rule, final int count) {
        return matches(batch, app.rootPath, kind, index, rule, count);
    }

    private Reply matches(
        final CallBatch batch, final String path, final int kind, final int index, final Object[] rule, final int count) {
        return channel.call(batch, path, AtspiBus.COLLECTION, "GetMatches", AtspiBus.GET_MATCHES_SIGNATURE,
            kind, index, rule, new UInt32(AtspiMapping.SORT_CANONICAL), count, Boolean.TRUE);
    }

    /**
     * Adds the listing of the objects under each of {@code roots} (drafts of this listing's tree:
     * their descendants; at-spi2-atk's {@code GetMatches} leaves the object itself out) to
     * {@code batch}: the same rules as {@link #ask}, numbered {@code ordinal * SUBTREE_STRIDE + rule} (D61).
     */
    void askUnder(final CallBatch batch, final int[] roots) {
        for (int r = 0; r < roots.length; r++) {
            askUnder(batch, tree.get(roots[r]).path, r);
        }
    }

    private void askUnder(final CallBatch batch, final String path, final int ordinal) {
        final int count = maxNodes + 1;
        final int base = ordinal * SUBTREE_STRIDE;
        matches(batch, path, K_MATCH_ALL, base, EMPTY_RULE, count);
        for (int c = 0; c < ROLE_RULES.length; c++) {
            matches(batch, path, K_MATCH_ROLE, base + c, ROLE_RULES[c], count);
        }
        for (int s = 0; s < STATE_RULES.length; s++) {
            matches(batch, path, K_MATCH_STATE, base + s, STATE_RULES[s], count);
        }
        matches(batch, path, K_MATCH_RARE, base, RARE_RULE, count);
        for (int i = 0; i < INTERFACE_RULES.length; i++) {
            matches(batch, path, K_MATCH_INTERFACE, base + i, INTERFACE_RULES[i], count);
        }
    }

    /**
     * The paths {@link #askUnder} listed under root {@code ordinal}, in canonical order; null when
     * the listing did not come, or came cut at the budget.
     */
    java.util.List<String> listedUnder(final CallBatch batch, final int ordinal) {
        for (final Reply call : batch.calls) {
            if (call.kind() == K_MATCH_ALL && call.index() == ordinal * SUBTREE_STRIDE) {
                final Object[] reply = call.answered() && !call.failed() ? call.parameters() : null;
                if (reply == null || reply.length == 0 || AtspiCall.length(reply[0]) > maxNodes) {
                    return null;
                }
                final java.util.List<String> paths = new java.util.ArrayList<>(AtspiCall.length(reply[0]));
                for (int i = 0, n = AtspiCall.length(reply[0]); i < n; i++) {
                    paths.add(AtspiCall.referencePath(AtspiCall.item(reply[0], i)));
                }
                return paths;
            }
        }
        return null;
    }

    /**
     * Puts {@link #askUnder}'s rule matches into the objects of {@code merged} that were listed
     * anew, and from then on counts every other object's details as known (they stand from the
     * last read), so the details stage asks only the new ones; false when a rule's reply is missing.
     */
    boolean readUnder(final CallBatch batch, final DraftTree merged, final boolean[] listed) {
        for (final Reply call : batch.calls) {
            final int kind = call.kind();
            if (kind != K_MATCH_ROLE && kind != K_MATCH_STATE && kind != K_MATCH_INTERFACE && kind != K_MATCH_RARE) {
                continue;
            }
            final Object[] reply = call.answered() && !call.failed() ? call.parameters() : null;
            if (reply == null || reply.length == 0) {
                return false;
            }
            final int rule = call.index() % SUBTREE_STRIDE;
            for (int i = 0, m = AtspiCall.length(reply[0]); i < m; i++) {
                final Integer index = merged.indexOf(AtspiCall.referencePath(AtspiCall.item(reply[0], i)));
                if (index == null || !listed[index]) {
                    continue;
                }
                final DraftTree.Draft d = merged.get(index);
                switch (kind) {
                    case K_MATCH_ROLE -> d.roleCode |= 1 << rule;
                    case K_MATCH_STATE -> d.states |= 1 << rule;
                    case K_MATCH_INTERFACE -> d.interfaces |= 1 << rule;
                    default -> d.rare = true;
                }
            }
        }
        final int n = merged.size();
        haveProperties = new boolean[n];
        haveExtents = new boolean[n];
        haveCharCount = new boolean[n];
        haveState = new boolean[n];
        for (int i = 0; i < n; i++) {
            final boolean known = !listed[i];
            haveProperties[i] = known;
            haveExtents[i] = known;
            haveCharCount[i] = known;
            haveState[i] = known;
            if (listed[i]) {
                merged.get(i).roleClass = AtspiMapping.roleClassOfCode(merged.get(i).roleCode);
            }
        }
        return true;
    }

    /** Applies the details asked with the listing to the objects still listed. */
    void readEarlyDetails(final CallBatch batch) {
        final int n = tree.size();
        haveProperties = new boolean[n];
        haveExtents = new boolean[n];
        haveCharCount = new boolean[n];
        haveState = new boolean[n];
        for (final Reply call : batch.calls) {
            final int kind = call.kind();
            final boolean early = kind == K_EARLY_PROPERTIES || kind == K_EARLY_EXTENTS || kind == K_EARLY_CHAR_COUNT
                || kind == K_EARLY_STATE;
            if (!early || !call.answered() || call.failed()) {
                continue;
            }
            final Integer i = tree.indexOf(earlyFrom.get(call.index()).objectPath());
            if (i == null) {
                continue;  // gone since, or beyond the budget now
            }
            switch (kind) {
                case K_EARLY_PROPERTIES -> haveProperties[i] = tree.applyDetail(K_PROPERTIES, i, call);
                case K_EARLY_EXTENTS -> {
                    // Only where it still shows: a hidden object publishes no bounds.
                    if ((tree.get(i).states & S_SHOWN) != 0) {
                        haveExtents[i] = tree.applyDetail(K_EXTENTS, i, call);
                    }
                }
                case K_EARLY_STATE -> {
                    // Only where the rule still lists it: a state that came or went since is asked again.
                    if (tree.get(i).rare) {
                        haveState[i] = tree.applyDetail(K_STATE, i, call);
                    }
                }
                default -> haveCharCount[i] = tree.applyDetail(K_CHAR_COUNT, i, call);
            }
        }
    }

    /** Reads whichever bulk replies are in (all of them after a normal completion). */
    void readArrived(final CallBatch batch) {
        final Reply all = batch.calls.get(0);
        final Object[] allReply = all.parameters();
        if (allReply == null || allReply.length == 0) {
            return;  // without the object list, nothing else can be placed
        }
        final Object list = allReply[0];
        final int total = AtspiCall.length(list);
        final int n = Math.min(total, maxNodes);
        tree.truncated = total > maxNodes;
        tree.budgetReached = tree.truncated;
        for (int i = 0; i < n; i++) {
            final String path = AtspiCall.referencePath(AtspiCall.item(list, i));
            if (path != null && tree.indexOf(path) == null) {
                tree.add(path, DraftTree.ROOT, 0);
            }
        }
        tree.listed = true;
        for (int c = 1, calls = batch.calls.size(); c < calls; c++) {
            final Reply call = batch.calls.get(c);
            final Object[] reply = call.parameters();
            if (reply == null || reply.length == 0) {
                continue;
            }
            final Object matches = reply[0];
            for (int i = 0, m = AtspiCall.length(matches); i < m; i++) {
                final Integer index = tree.indexOf(AtspiCall.referencePath(AtspiCall.item(matches, i)));
                if (index == null) {
                    continue;  // beyond the budget window, or created after the listing
                }
                final DraftTree.Draft d = tree.get(index);
                switch (call.kind()) {
                    case K_MATCH_ROLE -> d.roleCode |= 1 << call.index();
                    case K_MATCH_STATE -> d.states |= 1 << call.index();
                    case K_MATCH_INTERFACE -> d.interfaces |= 1 << call.index();
                    case K_MATCH_RARE -> d.rare = true;
                    default -> {
                    }
                }
            }
        }
        for (int i = 0, size = tree.size(); i < size; i++) {
            final DraftTree.Draft d = tree.get(i);
            d.roleClass = AtspiMapping.roleClassOfCode(d.roleCode);
        }
    }

    /** Draft {@code i}'s name and parent came with the listing. */
    boolean hasProperties(final int i) {
        return already(haveProperties, i);
    }

    /** Draft {@code i}'s whole state set came with the listing (asked where it had a rare state). */
    boolean hasState(final int i) {
        return already(haveState, i);
    }

    /** Draft {@code i}'s extents came with the listing. */
    boolean hasExtents(final int i) {
        return already(haveExtents, i);
    }

    /** Draft {@code i}'s character count came with the listing. */
    boolean hasCharCount(final int i) {
        return already(haveCharCount, i);
    }

    private static boolean already(final boolean[] have, final int i) {
        return have != null && have[i];
    }

    /** A match rule: states (ALL), no attributes, roles (ANY), interfaces (ALL), not inverted. */
    static Object[] matchRule(final int[] states, final int[] roles, final String[] interfaces) {
        return matchRule(states, AtspiMapping.MATCH_ALL, roles, interfaces);
    }

    /** A match rule as {@link #matchRule(int[], int[], String[])}, the states matched by {@code stateMatch}. */
    static Object[] matchRule(final int[] states, final int stateMatch, final int[] roles, final String[] interfaces) {
        return new Object[] {
            states, stateMatch, Map.of(), AtspiMapping.MATCH_ALL,
            roles, roles.length == 0 ? AtspiMapping.MATCH_ALL : AtspiMapping.MATCH_ANY,
            interfaces, AtspiMapping.MATCH_ALL, Boolean.FALSE};
    }
}
