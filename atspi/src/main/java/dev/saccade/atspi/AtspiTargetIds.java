package dev.saccade.atspi;

import dev.saccade.desktop.TargetIds;

/**
 * Target ids of accessible objects: {@link TargetIds#ACCESSIBILITY_NAMESPACE} in the top byte, a
 * 56-bit hash of (application, object path, role class) below.
 *
 * <p>Why these inputs: toolkits keep an object's path for the object's life (at-spi2-atk numbers
 * objects, Qt uses its accessible ids), so the id survives refreshes and list positions do not
 * matter. The application is its unique bus name plus pid: a unique name is never reused while the
 * accessibility bus runs, the pid tells two bus lifetimes apart. The role class guards against a
 * toolkit that reuses the path of a destroyed object for a different kind of object; editability
 * is not part of it, so a field turning read-only keeps its id.
 *
 * <p>Collisions: 56 bits over a desktop's few thousand objects make one vanishingly unlikely
 * (about n²/2⁵⁷).
 */
final class AtspiTargetIds {
    private static final long LOW_56 = (1L << 56) - 1;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private AtspiTargetIds() {
    }

    /** Hash of the application part, computed once per application and passed to {@link #of}. */
    static long appSeed(final String busName, final long pid) {
        long h = FNV_OFFSET;
        h = mixChars(h, busName);
        h = mixLong(h, pid);
        return h;
    }

    /** The target id of one object; never 0. */
    static long of(final long appSeed, final String objectPath, final int roleClass) {
        long h = mixChars(appSeed, objectPath);
        h = mixLong(h, roleClass);
        h = finish(h);
        final long low = h & LOW_56;
        return TargetIds.ACCESSIBILITY_NAMESPACE | (low == 0 ? 1 : low);
    }

    private static long mixChars(final long seed, final String s) {
        long h = seed;
        for (int i = 0, n = s.length(); i < n; i++) {
            final char c = s.charAt(i);
            h = (h ^ (c & 0xFF)) * FNV_PRIME;
            h = (h ^ (c >>> 8)) * FNV_PRIME;
        }
        // The length ends the field: ("ab", "c") and ("a", "bc") hash apart.
        return (h ^ s.length()) * FNV_PRIME;
    }

    private static long mixLong(final long seed, final long v) {
        long h = seed;
        for (int shift = 0; shift < 64; shift += 8) {
            h = (h ^ ((v >>> shift) & 0xFF)) * FNV_PRIME;
        }
        return h;
    }

    /** MurmurHash3's fmix64: FNV's low bits are weak, and we keep 56 of them. */
    private static long finish(final long v) {
        long h = v;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
