package dev.saccade.atspi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The merge of re-read subtrees into a last whole tree (D61), on trees built by hand in the
 * bulk listing's canonical order: what is replaced, what keeps its facts, where the parents go,
 * and every case where it refuses so the application is read whole.
 */
class SubtreeMergeTest {
    private static final String APP = "/org/a11y/atspi/accessible/root";

    /**
     * A tree of {@code paths} with {@code parents} (index, or -1 for the application's child),
     * each object shown (so its parent counts as read) unless listed in {@code hidden}.
     */
    private static DraftTree tree(final String[] paths, final int[] parents, final int... hidden) {
        final DraftTree tree = new DraftTree(new KnownApp(":1.5", APP), 1_000, true);
        for (int i = 0; i < paths.length; i++) {
            tree.add(paths[i], DraftTree.ROOT, 0);
            tree.get(i).states |= AtspiMapping.S_SHOWN;
            tree.get(i).name = "name of " + paths[i];
        }
        for (final int h : hidden) {
            tree.get(h).states &= ~AtspiMapping.S_SHOWN;
        }
        for (int i = 0; i < paths.length; i++) {
            tree.bulkParent(i, parents[i]);
        }
        tree.listed = true;
        return tree;
    }

    /** A page: document, a paragraph with its text, a second paragraph with its text and a link in it. */
    private static DraftTree page() {
        return tree(new String[] {"doc", "p1", "t1", "p2", "t2", "a2", "after"},
            new int[] {-1, 0, 1, 0, 3, 3, -1});
    }

    private static List<String> paths(final DraftTree tree) {
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < tree.size(); i++) {
            out.add(tree.get(i).path);
        }
        return out;
    }

    private static int[] parents(final DraftTree tree) {
        final int[] out = new int[tree.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = tree.bulkParent(i);
        }
        return out;
    }

    @Test
    void anObjectsDescendantsEndAtTheFirstObjectWhoseParentLiesBeforeIt() {
        final DraftTree tree = page();
        assertEquals(3, SubtreeMerge.end(tree, 1), "p1 holds t1");
        assertEquals(6, SubtreeMerge.end(tree, 3), "p2 holds t2 and a2");
        assertEquals(6, SubtreeMerge.end(tree, 0), "the document holds both paragraphs, not what follows it");
        assertEquals(3, SubtreeMerge.end(tree, 2), "a leaf holds nothing");
        assertEquals(7, SubtreeMerge.end(tree, 6), "the last object holds nothing");
    }

    @Test
    void theChangedParagraphsTextIsReplacedAndEverythingElseKeepsItsFacts() {
        final DraftTree old = page();
        final SubtreeMerge m = SubtreeMerge.merge(old, new int[] {1}, List.of(List.of("t1-new")), APP, 100);
        assertEquals(List.of("doc", "p1", "t1-new", "p2", "t2", "a2", "after"), paths(m.merged));
        assertArrayEquals(new boolean[] {false, false, true, false, false, false, false}, m.listed);
        assertArrayEquals(new int[] {1}, m.roots);
        for (final String kept : List.of("doc", "p1", "p2", "t2", "a2", "after")) {
            assertSame(old.get(old.indexOf(kept)), m.merged.get(m.merged.indexOf(kept)), kept + " keeps its facts");
        }
        assertEquals("", m.merged.get(2).name, "the new text is a new object whose facts are still to be asked");
        assertArrayEquals(new int[] {-1, 0, -1, 0, 3, 3, -1}, parents(m.merged),
            "kept objects keep their parents; the new one's comes with its details");
        assertNull(m.merged.indexOf("t1"), "the old text is gone");
        assertArrayEquals(new boolean[] {false, true, true, false, false, false, false}, m.reread(),
            "the text is read again of the paragraph and its new child only");
    }

    @Test
    void aSubtreeThatGrowsOrEmptiesShiftsWhatFollowsAndItsParents() {
        final SubtreeMerge grown = SubtreeMerge.merge(page(), new int[] {1}, List.of(List.of("t1", "b1", "t1b")), APP,
            100);
        assertEquals(List.of("doc", "p1", "t1", "b1", "t1b", "p2", "t2", "a2", "after"), paths(grown.merged));
        assertArrayEquals(new int[] {-1, 0, -1, -1, -1, 0, 5, 5, -1}, parents(grown.merged));
        final SubtreeMerge emptied = SubtreeMerge.merge(page(), new int[] {3}, List.of(List.of()), APP, 100);
        assertEquals(List.of("doc", "p1", "t1", "p2", "after"), paths(emptied.merged));
        assertArrayEquals(new int[] {-1, 0, 1, 0, -1}, parents(emptied.merged));
    }

    @Test
    void twoSubtreesAreMergedInOnePassAndAnInnerOneIsCoveredByItsOuter() {
        final SubtreeMerge both = SubtreeMerge.merge(page(), new int[] {1, 3},
            List.of(List.of("t1-new"), List.of("t2-new")), APP, 100);
        assertEquals(List.of("doc", "p1", "t1-new", "p2", "t2-new", "after"), paths(both.merged));
        assertArrayEquals(new int[] {1, 3}, both.roots);
        final SubtreeMerge nested = SubtreeMerge.merge(page(), new int[] {0, 3},
            List.of(List.of("p1", "t1", "p2", "t2-new"), List.of("t2-new")), APP, 100);
        assertEquals(List.of("doc", "p1", "t1", "p2", "t2-new", "after"), paths(nested.merged));
        assertEquals(DraftTree.ROOT, nested.roots[1], "p2 came anew with the document's listing");
        assertTrue(nested.listed[3], "and is asked its facts with it");
        assertFalse(nested.listed[5]);
    }

    @Test
    void aParentNotReadBesideTheSubtreeMakesTheApplicationReadWhole() {
        // "p2" did not show: its parent was never asked, so it may be p1's child or the document's
        final DraftTree hiddenAfter = tree(new String[] {"doc", "p1", "t1", "p2", "after"},
            new int[] {-1, 0, 1, -1, -1}, 3);
        assertEquals(-1, SubtreeMerge.end(hiddenAfter, 1));
        assertNull(SubtreeMerge.merge(hiddenAfter, new int[] {1}, List.of(List.of("t1")), APP, 100));
        final DraftTree hiddenRoot = tree(new String[] {"doc", "p1", "t1"}, new int[] {-1, 0, 1}, 1);
        assertNull(SubtreeMerge.merge(hiddenRoot, new int[] {1}, List.of(List.of("t1")), APP, 100),
            "a root that did not show");
        final DraftTree vanished = page();
        vanished.get(2).dropped = true;
        assertNull(SubtreeMerge.merge(vanished, new int[] {1}, List.of(List.of("t1")), APP, 100),
            "an object that vanished");
    }

    @Test
    void anObjectListedTwiceOrTheApplicationItselfMakesTheApplicationReadWhole() {
        assertNull(SubtreeMerge.merge(page(), new int[] {1}, List.of(List.of("t1", "a2")), APP, 100),
            "a2 is p2's: listed under p1 now too, it moved without an event for p2");
        assertNull(SubtreeMerge.merge(page(), new int[] {1}, List.of(List.of("x", "x")), APP, 100));
        assertNull(SubtreeMerge.merge(page(), new int[] {1}, List.of(List.of(APP)), APP, 100));
    }

    @Test
    void aMergedTreeOverTheNodeBudgetMakesTheApplicationReadWhole() {
        assertEquals(8, SubtreeMerge.merge(page(), new int[] {1}, List.of(List.of("a", "b")), APP, 8).merged.size());
        assertNull(SubtreeMerge.merge(page(), new int[] {1}, List.of(List.of("a", "b", "c")), APP, 8),
            "the whole read cuts at the budget and says the tree is incomplete");
    }
}
