package dev.saccade.owner;

import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Relation;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Which scene records a read takes (spec §5.3 scope and source mode, §5.6 filters and
 * relations), record by record in the scene's buffer; {@link AgentService} copies what matches.
 * Owner thread only; allocates nothing.
 */
final class ReadMatcher {
    private final QueryFilterFlyweight filter = new QueryFilterFlyweight();

    /**
     * D22: whether the active window {@code windowId} holds a target from the accessibility source.
     * Its grid cells are then noise in a FUSED active-window observe (gtk3-demo's main window: 43
     * semantic targets, 56 cells), so they are left out; GRID mode, queries and the other scopes
     * still return them.
     */
    static boolean hasSemantic(final ScenePacket scene, final long windowId, final BytesStore<?, ?> rectStore,
        final long rectAt) {
        final BytesStore<?, ?> sb = scene.bytes();
        for (int i = 0, n = scene.targetCount(); i < n; i++) {
            final long at = scene.recordAt(i);
            if ((sb.readUnsignedShort(at + TargetFlyweight.SOURCE_BITS_OFFSET) & SourceBit.ACCESSIBILITY) != 0
                && scopeMatches(ScopeKind.ACTIVE_WINDOW, sb, at, windowId, windowId, rectStore, rectAt)) {
                return true;
            }
        }
        return false;
    }

    /** §5.3: mode 0 or FUSED takes all; PIXEL needs NEURAL or PIXEL; SEMANTIC ACCESSIBILITY; GRID GRID. */
    static boolean sourceMatches(final int mode, final int sourceBits) {
        switch (mode) {
            case 0:
            case SourceMode.FUSED:
                return true;
            case SourceMode.PIXEL:
                return (sourceBits & (SourceBit.NEURAL | SourceBit.PIXEL)) != 0;
            case SourceMode.SEMANTIC:
                return (sourceBits & SourceBit.ACCESSIBILITY) != 0;
            case SourceMode.GRID:
                return (sourceBits & SourceBit.GRID) != 0;
            default:
                return false;
        }
    }

    static boolean scopeMatches(
        final int kind, final BytesStore<?, ?> sb, final long at, final long resolvedId, final long stableId,
        final BytesStore<?, ?> rectStore, final long rectAt) {
        switch (kind) {
            case ScopeKind.DESKTOP:
                return true;
            case ScopeKind.ACTIVE_WINDOW: {
                final long window = sb.readLong(at + TargetFlyweight.WINDOW_ID_OFFSET);
                return window == resolvedId
                    || (window == 0 && RectQ8.intersects(sb, at + TargetFlyweight.BOUNDS_OFFSET, rectStore, rectAt));
            }
            case ScopeKind.DISPLAY:
                return sb.readLong(at + TargetFlyweight.DISPLAY_ID_OFFSET) == stableId;
            case ScopeKind.RECT:
                return RectQ8.intersects(sb, at + TargetFlyweight.BOUNDS_OFFSET, rectStore, rectAt);
            case ScopeKind.WINDOW:
                return sb.readLong(at + TargetFlyweight.WINDOW_ID_OFFSET) == stableId;
            default:
                return false;
        }
    }

    // ---------------------------------------------------------------- filters (§5.6)

    boolean filtersMatch(
        final ScenePacket scene, final long at, final BytesStore<?, ?> req, final long reqAt,
        final long filtersOffset, final long count, final long stride, final boolean baseRoles) {
        for (long i = 0; i < count; i++) {
            if (!filterMatches(scene, at, filter.wrap(req, reqAt + filtersOffset + i * stride), req, reqAt, baseRoles)) {
                return false;
            }
        }
        return true;
    }

    private static boolean filterMatches(
        final ScenePacket scene, final long at, final QueryFilterFlyweight f,
        final BytesStore<?, ?> req, final long reqAt, final boolean baseRoles) {
        final BytesStore<?, ?> sb = scene.bytes();
        final int flags = f.flags();
        if ((flags & FilterFlag.STABLE_ID) != 0 && sb.readLong(at + TargetFlyweight.TARGET_ID_OFFSET) != f.targetId()) {
            return false;
        }
        if ((flags & FilterFlag.ROLE) != 0) {
            // The role as this connection sees it: a base-ABI client's ROLE BUTTON matches a tab.
            final int role = sb.readUnsignedShort(at + TargetFlyweight.ROLE_OFFSET);
            if ((baseRoles ? Role.base(role) : role) != f.role()) {
                return false;
            }
        }
        if ((flags & FilterFlag.TEXT) != 0 && !textMatches(scene, at, f, req, reqAt)) {
            return false;
        }
        if ((flags & FilterFlag.CAPABILITY) != 0) {
            final int caps = sb.readInt(at + TargetFlyweight.CAPABILITY_BITS_OFFSET);
            final int required = f.requiredCapabilityBits();
            if ((caps & required) != required || (caps & f.forbiddenCapabilityBits()) != 0) {
                return false;
            }
        }
        if ((flags & FilterFlag.SOURCE) != 0
            && (sb.readUnsignedShort(at + TargetFlyweight.SOURCE_BITS_OFFSET) & f.sourceBits()) == 0) {
            return false; // D3: any-of
        }
        if ((flags & FilterFlag.GEOMETRY) != 0
            && !RectQ8.intersects(sb, at + TargetFlyweight.BOUNDS_OFFSET, f.bytes(), f.offset() + QueryFilterFlyweight.GEOMETRY_OFFSET)) {
            return false;
        }
        if ((flags & FilterFlag.CONFIDENCE) != 0
            && sb.readUnsignedInt(at + TargetFlyweight.CONFIDENCE_Q16_OFFSET) < f.minimumConfidenceQ16()) {
            return false;
        }
        return (flags & FilterFlag.RELATION) == 0 || relationHolds(scene, at, f.relation(), f.relationTargetId());
    }

    private static boolean textMatches(
        final ScenePacket scene, final long at, final QueryFilterFlyweight f,
        final BytesStore<?, ?> req, final long reqAt) {
        final BytesStore<?, ?> sb = scene.bytes();
        final long size = sb.readUnsignedInt(at + TargetFlyweight.TEXT_SIZE_OFFSET);
        if (size == 0) {
            return false;
        }
        final long text = scene.laneAt() + sb.readUnsignedInt(at + TargetFlyweight.TEXT_OFFSET_OFFSET);
        final long needle = reqAt + f.textOffset();
        final long n = f.textSize();
        switch (f.textMatch()) {
            case TextMatch.EXACT:
                return size == n && regionEquals(sb, text, req, needle, n);
            case TextMatch.PREFIX:
                return size >= n && regionEquals(sb, text, req, needle, n);
            case TextMatch.SUBSTRING:
                for (long from = 0; from + n <= size; from++) {
                    if (regionEquals(sb, text + from, req, needle, n)) {
                        return true;
                    }
                }
                return false;
            default:
                return false;
        }
    }

    private static boolean regionEquals(
        final BytesStore<?, ?> a, final long aAt, final BytesStore<?, ?> b, final long bAt, final long n) {
        for (long i = 0; i < n; i++) {
            if (a.readByte(aAt + i) != b.readByte(bAt + i)) {
                return false;
            }
        }
        return true;
    }

    /** §5.6: candidate T (record at {@code at}) against related R ({@code relatedId}). */
    private static boolean relationHolds(
        final ScenePacket scene, final long at, final int relation, final long relatedId) {
        final int r = scene.indexOf(relatedId);
        if (r < 0) {
            return false;
        }
        final BytesStore<?, ?> sb = scene.bytes();
        final long rAt = scene.recordAt(r);
        final long tId = sb.readLong(at + TargetFlyweight.TARGET_ID_OFFSET);
        final long tParent = sb.readLong(at + TargetFlyweight.PARENT_ID_OFFSET);
        final long rParent = sb.readLong(rAt + TargetFlyweight.PARENT_ID_OFFSET);
        switch (relation) {
            case Relation.SELF:
                return tId == relatedId;
            case Relation.PARENT:
                return tId == rParent;
            case Relation.CHILD:
                return tParent == relatedId;
            case Relation.ANCESTOR:
                return descends(scene, relatedId, rParent, tId);
            case Relation.DESCENDANT:
                return descends(scene, tId, tParent, relatedId);
            case Relation.SIBLING:
                return tId != relatedId && tParent != 0 && tParent == rParent;
            case Relation.CONTAINS:
                return RectQ8.contains(sb, at + TargetFlyweight.BOUNDS_OFFSET, sb, rAt + TargetFlyweight.BOUNDS_OFFSET);
            case Relation.CONTAINED_BY:
                return RectQ8.contains(sb, rAt + TargetFlyweight.BOUNDS_OFFSET, sb, at + TargetFlyweight.BOUNDS_OFFSET);
            default:
                return false;
        }
    }

    /**
     * Whether {@code ancestorId} is reached walking parent links up from the record
     * {@code startId} whose parent is {@code parentId}; at most scene-count steps, and a missing
     * or self-parented record ends the walk with false.
     */
    private static boolean descends(
        final ScenePacket scene, final long startId, final long parentId, final long ancestorId) {
        final BytesStore<?, ?> sb = scene.bytes();
        final int steps = scene.targetCount();
        long id = startId;
        long parent = parentId;
        for (int i = 0; i < steps; i++) {
            if (parent == 0 || parent == id) {
                return false;
            }
            if (parent == ancestorId) {
                return true;
            }
            final int index = scene.indexOf(parent);
            if (index < 0) {
                return false;
            }
            id = parent;
            parent = sb.readLong(scene.recordAt(index) + TargetFlyweight.PARENT_ID_OFFSET);
        }
        return false;
    }
}
