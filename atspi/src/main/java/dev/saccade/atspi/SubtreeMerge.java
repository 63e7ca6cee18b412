package dev.saccade.atspi;

import static dev.saccade.atspi.DraftTree.ROOT;

import java.util.ArrayList;
import java.util.List;

/**
 * Puts re-read subtrees into an application's last whole tree (D61): the tree of a bulk read is
 * in canonical order, each object followed by all it holds, so an object's old descendants are
 * the objects after it up to the first one whose parent lies before it, and the new tree is the
 * old one with that run replaced by the object's descendants as listed now. Objects outside the
 * runs keep their facts (the same {@link DraftTree.Draft}s); the listed ones are new drafts whose
 * facts the refresh then asks. Pure logic on the source thread.
 *
 * <p>Where the old run cannot be told for sure, the merge refuses and the application is read
 * whole: an object in or right after the run whose parent was never read (with the scene's
 * collapse, an object that did not show is left out with its parent unread), an object listed
 * twice, or more objects than the node budget.
 */
final class SubtreeMerge {
    /** The merged tree. */
    final DraftTree merged;
    /** Per object of {@link #merged}: listed anew by the subtree read (its facts are to be asked). */
    final boolean[] listed;
    /** The re-read roots' indexes in {@link #merged}, in order. */
    final int[] roots;

    private SubtreeMerge(final DraftTree merged, final boolean[] listed, final int[] roots) {
        this.merged = merged;
        this.listed = listed;
        this.roots = roots;
    }

    /**
     * Reads a SUBTREE batch (D61): each root's listing ({@link BulkListing#askUnder}), the roots'
     * own facts into {@code old} ({@link IncrementalCheck#applyTouched}), then the merge and the
     * new objects' rule matches; null when any of it fails and the application is to be read whole.
     */
    static SubtreeMerge read(
        final CallBatch batch, final BulkListing bulk, final IncrementalCheck incremental, final DraftTree old,
        final int[] roots, final String rootPath, final int maxNodes) {
        final List<List<String>> listings = new ArrayList<>(roots.length);
        for (int r = 0; r < roots.length; r++) {
            final List<String> listed = bulk.listedUnder(batch, r);
            if (listed == null) {
                return null;
            }
            listings.add(listed);
        }
        if (!incremental.applyTouched(batch)) {
            return null;
        }
        final SubtreeMerge merge = merge(old, roots, listings, rootPath, maxNodes);
        return merge != null && bulk.readUnder(batch, merge.merged, merge.listed) ? merge : null;
    }

    /** Per object of {@link #merged}: its text is to be read again (listed anew, or a re-read root). */
    boolean[] reread() {
        final boolean[] out = listed.clone();
        for (final int root : roots) {
            if (root >= 0) {
                out[root] = true;
            }
        }
        return out;
    }

    /**
     * Where object {@code root}'s descendants end in {@code tree} (exclusive), or -1 when that
     * cannot be told from the parents read: the root or an object in question has no parent read.
     */
    static int end(final DraftTree tree, final int root) {
        if (!tree.parentRead(root)) {
            return -1;
        }
        final int n = tree.size();
        int k = root + 1;
        while (k < n) {
            if (!tree.parentRead(k)) {
                return -1;
            }
            // Canonical order: a parent comes before its children, and everything between the
            // root and k is the root's, so k is the root's exactly when its parent is at or after it.
            if (tree.bulkParent(k) < root) {
                break;
            }
            k++;
        }
        return k;
    }

    /**
     * The tree with the descendants of each of {@code roots} (indexes in {@code old}, ascending)
     * replaced by {@code listings} (each root's descendants as listed now, canonical order); null
     * when the merge cannot be made safely (see the class comment). A root inside another root's
     * run is left out: the outer listing covers it.
     */
    static SubtreeMerge merge(
        final DraftTree old, final int[] roots, final List<List<String>> listings, final String rootPath,
        final int maxNodes) {
        final int n = old.size();
        final int[] ends = new int[roots.length];
        for (int r = 0; r < roots.length; r++) {
            if (r > 0 && roots[r] <= roots[r - 1]) {
                throw new IllegalArgumentException("roots not ascending");
            }
            ends[r] = end(old, roots[r]);
            if (ends[r] < 0) {
                return null;
            }
        }
        int total = n;
        for (int r = 0, outerEnd = -1; r < roots.length; r++) {
            if (roots[r] < outerEnd) {
                continue; // inside an outer root's run
            }
            total += listings.get(r).size() - (ends[r] - roots[r] - 1);
            outerEnd = ends[r];
        }
        if (total > maxNodes) {
            return null; // the whole read cuts it at the budget and says so
        }
        final DraftTree merged = old.emptyCopy();
        final int[] remap = new int[n];
        java.util.Arrays.fill(remap, ROOT);
        final boolean[] listed = new boolean[total];
        final int[] mergedRoots = new int[roots.length];
        int k = 0;
        for (int r = 0; r < roots.length; r++) {
            if (roots[r] < k) {
                mergedRoots[r] = remap[roots[r]] >= 0 ? remap[roots[r]] : ROOT;
                continue;
            }
            for (; k <= roots[r]; k++) {
                if ((remap[k] = merged.adopt(old.get(k))) < 0) {
                    return null;
                }
            }
            mergedRoots[r] = remap[roots[r]];
            for (final String path : listings.get(r)) {
                if (path == null || path.equals(rootPath) || merged.indexOf(path) != null) {
                    return null; // a cycle or an object listed twice: the whole read sorts it out
                }
                listed[merged.add(path, ROOT, 0)] = true;
            }
            k = ends[r];
        }
        for (; k < n; k++) {
            if ((remap[k] = merged.adopt(old.get(k))) < 0) {
                return null;
            }
        }
        for (int i = 0; i < n; i++) {
            if (remap[i] >= 0) {
                final int parent = old.bulkParent(i);
                merged.bulkParent(remap[i], parent == ROOT ? ROOT : remap[parent]);
            }
        }
        merged.listed = true;
        return new SubtreeMerge(merged, listed, mergedRoots);
    }
}
