package dev.saccade.owner;

import dev.saccade.owner.action.ActionPlanner;
import dev.saccade.owner.action.InputExecutor;
import dev.saccade.owner.action.NoInputExecutor;
import dev.saccade.owner.action.SemanticInvoker;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ErrorCompletions;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.GenerationFlyweight;
import dev.saccade.protocol.HeaderFlyweight;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Relation;
import dev.saccade.protocol.RequestValidator;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeFlyweight;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import java.security.SecureRandom;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The agent protocol's service side (spec §1.4, §4, §5): Hello, observe and query against the
 * current scene generation, typed errors, and parked AFTER_GENERATION reads. It is handed one
 * complete frame at a time by the owner loop and writes at most one completion into the
 * channel's response buffer; it never blocks and, after Hello, allocates nothing.
 *
 * <p>Owner thread only.
 */
public final class AgentService {
    /** Close the connection without writing (an untyped reject, spec §1.3). */
    public static final int CLOSE = -1;
    /** The read is parked on its channel; call {@link #onParkedTick} on later ticks. */
    public static final int PARKED = -2;

    private final SceneStore scenes;
    private final ActionPlanner planner;
    private final RequestValidator validator = new RequestValidator();
    private final ErrorCompletions errors = new ErrorCompletions();
    private final HelloRequestFlyweight hello = new HelloRequestFlyweight();
    private final ObserveRequestFlyweight observe = new ObserveRequestFlyweight();
    private final QueryRequestFlyweight query = new QueryRequestFlyweight();
    private final QueryFilterFlyweight filter = new QueryFilterFlyweight();
    private final CompletionFlyweight completion = new CompletionFlyweight();
    private final SecureRandom nonces = new SecureRandom();

    private long framesServed;
    private long connectionsRejected;
    /** Volatile: written on disconnect only, read by tests and diagnostics from other threads. */
    private volatile long neutralized;

    /** A service without an input helper: batches answer EXECUTOR_LOST (D5). */
    public AgentService(final SceneStore scenes) {
        this(scenes, NoInputExecutor.INSTANCE, null);
    }

    public AgentService(final SceneStore scenes, final InputExecutor executor, final SemanticInvoker invoker) {
        this.scenes = scenes;
        this.planner = new ActionPlanner(scenes, executor, invoker);
    }

    public long framesServed() {
        return framesServed;
    }

    public long connectionsRejected() {
        return connectionsRejected;
    }

    public long neutralized() {
        return neutralized;
    }

    /**
     * Handles one complete frame.
     *
     * @return the reply's length written at {@code respAt}, {@link #CLOSE} or {@link #PARKED}.
     */
    public int onFrame(
        final AgentSession session,
        final BytesStore<?, ?> req, final long reqAt, final long reqLength,
        final BytesStore<?, ?> resp, final long respAt, final long respCapacity,
        final long nowNs) {
        framesServed++;
        if (!session.authenticated) {
            return onHello(session, req, reqAt, reqLength, resp, respAt);
        }
        final int verdict = validator.validate(req, reqAt, reqLength, session.available, respCapacity, nowNs);
        if (verdict == RequestValidator.REJECT) {
            connectionsRejected++;
            return CLOSE;
        }
        if (verdict != RequestValidator.ACCEPT) {
            return errors.writeForRequest(resp, respAt, req, reqAt, verdict, session.available);
        }
        switch (req.readInt(reqAt + HeaderFlyweight.MESSAGE_KIND_OFFSET)) {
            case AgentAbi.OBSERVE_REQUEST:
                return serveObserve(session, req, reqAt, resp, respAt, nowNs, false);
            case AgentAbi.QUERY_REQUEST:
                return serveQuery(session, req, reqAt, resp, respAt, respCapacity, nowNs, false);
            default:
                return parkBatch(session, planner.begin(session.batch, session.available, session.leaseId,
                    req, reqAt, resp, respAt, nowNs));
        }
    }

    /**
     * Re-examines a parked read (spec §5.4): answers it once a newer generation is current or
     * with TIMEOUT once its deadline passed.
     *
     * @return the reply's length or {@link #PARKED}.
     */
    public int onParkedTick(
        final AgentSession session,
        final BytesStore<?, ?> req, final long reqAt,
        final BytesStore<?, ?> resp, final long respAt, final long respCapacity,
        final long nowNs) {
        if (session.batch.active()) {
            return parkBatch(session, planner.resume(session.batch, session.available, session.leaseId,
                req, reqAt, resp, respAt, nowNs));
        }
        if (req.readInt(reqAt + HeaderFlyweight.MESSAGE_KIND_OFFSET) == AgentAbi.OBSERVE_REQUEST) {
            return serveObserve(session, req, reqAt, resp, respAt, nowNs, true);
        }
        return serveQuery(session, req, reqAt, resp, respAt, respCapacity, nowNs, true);
    }

    /** Every owner tick, whatever the connections do. */
    public void tick(final long nowNs) {
        planner.tick(nowNs);
    }

    /** Whether {@code session} holds the input lease (it is never evicted for idleness, agent-abi §1.1). */
    public boolean holdsInput(final AgentSession session) {
        return session.authenticated && planner.holdsLease(session.leaseId);
    }

    private static int parkBatch(final AgentSession session, final int reply) {
        session.parked = reply == ActionPlanner.PARKED;
        return session.parked ? PARKED : reply;
    }

    /**
     * A connection went away (spec §1.3): drop its parked read or batch (a plan already sent
     * runs to its end), and release the input it holds.
     */
    public void onDisconnect(final AgentSession session) {
        if (session.authenticated) {
            neutralized++;
            planner.neutralize(session.leaseId);
        }
        session.batch.reset();
        session.parked = false;
        session.authenticated = false;
    }

    private int onHello(
        final AgentSession session, final BytesStore<?, ?> req, final long reqAt, final long reqLength,
        final BytesStore<?, ?> resp, final long respAt) {
        final int result = validator.validateHello(req, reqAt, reqLength);
        final long requestId = reqLength == HelloRequestFlyweight.LENGTH
            ? hello.wrap(req, reqAt).requestId() : 0;
        if (result != ResultCode.OK) {
            return errors.writeHello(resp, respAt, requestId, result, 0, 0, 0);
        }
        final int granted = hello.requestedCapabilityBits() & Capability.POLICY;
        // §1.4: the flags a client asks for beyond the base ABI; unknown bits are not accepted.
        final int accepted = hello.flags() & HelloFlag.KNOWN;
        session.authenticated = true;
        session.available = granted;
        session.helloFlags = accepted;
        return errors.writeHello(resp, respAt, requestId, ResultCode.OK, granted, accepted,
            nonces.nextLong(), nonces.nextLong());
    }

    // ---------------------------------------------------------------- observe

    private int serveObserve(
        final AgentSession session, final BytesStore<?, ?> req, final long reqAt,
        final BytesStore<?, ?> resp, final long respAt, final long nowNs, final boolean fromPark) {
        final ObserveRequestFlyweight o = observe.wrap(req, reqAt);
        final ScenePacket scene = scenes.current();
        final int early = snapshotChecks(session, scene, o.freshness(), o.scope(), nowNs, fromPark);
        if (early != RequestValidator.ACCEPT) {
            return early == PARKED ? PARKED
                : errors.writeReadError(resp, respAt, AgentAbi.OBSERVE_COMPLETION, o.requestId(), early,
                    session.available, req, reqAt + ObserveRequestFlyweight.SCOPE_OFFSET);
        }
        final long stride = o.targetStride();
        final long capacity = o.totalCapacity();
        final long recordCapacity = Math.min(o.maximumTargets(), (capacity - CompletionFlyweight.LENGTH) / stride);
        return writeRead(AgentAbi.OBSERVE_COMPLETION, session, scene, o.requestId(), o.scope(),
            req, reqAt, 0, 0, 0, resp, respAt, stride, recordCapacity, capacity);
    }

    // ---------------------------------------------------------------- query

    private int serveQuery(
        final AgentSession session, final BytesStore<?, ?> req, final long reqAt,
        final BytesStore<?, ?> resp, final long respAt, final long respCapacity, final long nowNs,
        final boolean fromPark) {
        final QueryRequestFlyweight q = query.wrap(req, reqAt);
        final ScenePacket scene = scenes.current();
        int early = snapshotChecks(session, scene, q.freshness(), q.scope(), nowNs, fromPark);
        if (early == RequestValidator.ACCEPT && q.generation() != 0 && q.generation() != scene.sceneEpoch()) {
            early = ResultCode.STALE_GENERATION; // #10: the pin
        }
        if (early != RequestValidator.ACCEPT) {
            return early == PARKED ? PARKED
                : errors.writeReadError(resp, respAt, AgentAbi.QUERY_COMPLETION, q.requestId(), early,
                    session.available, req, reqAt + QueryRequestFlyweight.SCOPE_OFFSET);
        }
        return writeRead(AgentAbi.QUERY_COMPLETION, session, scene, q.requestId(), q.scope(),
            req, reqAt, q.filtersOffset(), q.filterCount(), q.filterStride(),
            resp, respAt, TargetFlyweight.LENGTH, q.maximumResults(), respCapacity);
    }

    /**
     * Observe #5–#7 / query #7–#9: snapshot, freshness wait, active-window id.
     *
     * @return {@link RequestValidator#ACCEPT}, {@link #PARKED}, or a result code.
     */
    private int snapshotChecks(
        final AgentSession session, final ScenePacket scene, final FreshnessFlyweight freshness,
        final ScopeFlyweight scope, final long nowNs, final boolean fromPark) {
        session.parked = false;
        if (scene == null) {
            return ResultCode.BACKEND; // no source has published yet: nothing to read
        }
        if (!scene.coherent()) {
            return ResultCode.STALE_GENERATION;
        }
        if (freshness.policy() == FreshnessPolicy.AFTER_GENERATION
            && Long.compareUnsigned(scene.sceneEpoch(), freshness.afterGeneration()) <= 0) {
            if (!fromPark) {
                final long timeout = freshness.timeoutNs();
                if (timeout == 0) {
                    return ResultCode.TIMEOUT;
                }
                // arrival + timeout_ns, saturating (timeout_ns is u64: negative here means huge)
                final long deadline = nowNs + timeout;
                session.parkDeadlineNs = timeout < 0 || deadline < nowNs ? Long.MAX_VALUE : deadline;
            } else if (nowNs >= session.parkDeadlineNs) {
                return ResultCode.TIMEOUT;
            }
            session.parked = true;
            return PARKED;
        }
        if (scope.kind() == ScopeKind.ACTIVE_WINDOW) {
            if (!scene.activeWindowKnown()) {
                return ResultCode.TARGET_NOT_FOUND; // §5.2: no active window
            }
            if (scope.stableId() != 0 && scope.stableId() != scene.windowId()) {
                return ResultCode.TARGET_NOT_FOUND;
            }
        }
        return RequestValidator.ACCEPT;
    }

    /**
     * Writes an OK observe or query completion (spec §5.5): matching records in scene order up to
     * the record capacity, then the text lane up to the lane limit.
     */
    private int writeRead(
        final int kind, final AgentSession session, final ScenePacket scene, final long requestId,
        final ScopeFlyweight scope, final BytesStore<?, ?> req, final long reqAt,
        final long filtersOffset, final long filterCount, final long filterStride,
        final BytesStore<?, ?> resp, final long respAt, final long stride, final long recordCapacity,
        final long laneLimit) {
        final BytesStore<?, ?> sb = scene.bytes();
        final int scopeKind = scope.kind();
        final int mode = scope.sourceMode();
        final boolean activeWindow = scopeKind == ScopeKind.ACTIVE_WINDOW;
        final long resolvedId = activeWindow ? scene.windowId() : scope.stableId();
        final BytesStore<?, ?> rectStore = activeWindow ? sb : req;
        final long rectAt = activeWindow ? scene.windowBoundsAt() : scope.offset() + ScopeFlyweight.RECT_OFFSET;

        final long recordsAt = respAt + CompletionFlyweight.LENGTH;
        final int targets = scene.targetCount();
        // D19: an active-window observe of a window that has accessible targets leaves its grid cells out
        final boolean noGrid = kind == AgentAbi.OBSERVE_COMPLETION && activeWindow
            && (mode == 0 || mode == SourceMode.FUSED) && hasSemantic(scene, resolvedId, rectStore, rectAt);
        final boolean baseRoles = (session.helloFlags & HelloFlag.EXTENDED_ROLES) == 0;
        final boolean noStates = (session.helloFlags & HelloFlag.TARGET_STATES) == 0;
        final boolean packed = stride == TargetFlyweight.LENGTH;
        long count = 0;
        boolean truncated = false;
        // Matching records that follow each other in the scene go out in one copy; a typical
        // unfiltered observe is a single copy of every record.
        int runFirst = -1;
        int runLength = 0;
        for (int i = 0; i < targets; i++) {
            final long at = scene.recordAt(i);
            final int bits = sb.readUnsignedShort(at + TargetFlyweight.SOURCE_BITS_OFFSET);
            if (!sourceMatches(mode, bits) || (noGrid && bits == SourceBit.GRID)
                || !scopeMatches(scopeKind, sb, at, resolvedId, scope.stableId(), rectStore, rectAt)
                || !filtersMatch(scene, at, req, reqAt, filtersOffset, filterCount, filterStride, baseRoles)) {
                continue;
            }
            if (count == recordCapacity) {
                truncated = true;
                break;
            }
            if (packed) {
                if (runLength > 0 && runFirst + runLength == i) {
                    runLength++;
                } else {
                    copyRecords(resp, recordsAt + (count - runLength) * stride, sb, scene, runFirst, runLength);
                    runFirst = i;
                    runLength = 1;
                }
            } else {
                final long out = recordsAt + count * stride;
                resp.write(out, sb, at, TargetFlyweight.LENGTH);
                resp.zeroOut(out + TargetFlyweight.LENGTH, out + stride); // records zero-padded to the stride
            }
            count++;
        }
        copyRecords(resp, recordsAt + (count - runLength) * stride, sb, scene, runFirst, runLength);
        if (baseRoles || noStates) {
            // §1.4: what the connection did not ask for goes out as the base ABI has it.
            for (long i = 0; i < count; i++) {
                final long out = recordsAt + i * stride;
                if (baseRoles) {
                    resp.writeShort(out + TargetFlyweight.ROLE_OFFSET,
                        (short) Role.base(resp.readUnsignedShort(out + TargetFlyweight.ROLE_OFFSET)));
                }
                if (noStates) {
                    resp.writeInt(out + TargetFlyweight.STATES_OFFSET, 0);
                }
            }
        }
        if (activeWindow) {
            // §5.3: in ACTIVE_WINDOW results window_id 0 is the resolved window, display 0 the current one.
            for (long i = 0; i < count; i++) {
                final long out = recordsAt + i * stride;
                if (resp.readLong(out + TargetFlyweight.WINDOW_ID_OFFSET) == 0) {
                    resp.writeLong(out + TargetFlyweight.WINDOW_ID_OFFSET, resolvedId);
                }
                if (resp.readLong(out + TargetFlyweight.DISPLAY_ID_OFFSET) == 0) {
                    resp.writeLong(out + TargetFlyweight.DISPLAY_ID_OFFSET, scene.displayId());
                }
            }
        }

        // The text lane: each returned target's text if it still fits, in record order. Texts
        // that lie back to back in the scene's lane are copied together.
        final long laneEnd = respAt + laneLimit;
        long lane = recordsAt + count * stride;
        final long sceneLane = scene.laneAt();
        long textRunSource = 0;
        long textRunTarget = lane;
        long textRunLength = 0;
        for (long i = 0; i < count; i++) {
            final long out = recordsAt + i * stride;
            final long size = resp.readUnsignedInt(out + TargetFlyweight.TEXT_SIZE_OFFSET);
            if (size == 0) {
                resp.writeInt(out + TargetFlyweight.TEXT_OFFSET_OFFSET, 0);
                continue;
            }
            if (size <= laneEnd - lane) {
                final long source = sceneLane + resp.readUnsignedInt(out + TargetFlyweight.TEXT_OFFSET_OFFSET);
                if (textRunLength == 0 || textRunSource + textRunLength != source) {
                    if (textRunLength > 0) {
                        resp.write(textRunTarget, sb, textRunSource, textRunLength);
                    }
                    textRunSource = source;
                    textRunTarget = lane;
                    textRunLength = 0;
                }
                textRunLength += size;
                resp.writeInt(out + TargetFlyweight.TEXT_OFFSET_OFFSET, (int) (lane - respAt));
                lane += size;
            } else {
                resp.writeInt(out + TargetFlyweight.FLAGS_OFFSET,
                    resp.readInt(out + TargetFlyweight.FLAGS_OFFSET) | TargetFlag.TEXT_TRUNCATED);
                resp.writeLong(out + TargetFlyweight.TEXT_OFFSET_OFFSET, 0); // text_offset and text_size
                truncated = true;
            }
        }
        if (textRunLength > 0) {
            resp.write(textRunTarget, sb, textRunSource, textRunLength);
        }

        final long total = lane - respAt;
        final CompletionFlyweight c = completion.wrap(resp, respAt);
        int flags = 0;
        if (truncated) {
            flags |= AgentAbi.FLAG_TRUNCATED;
        }
        if (scene.incomplete()) {
            flags |= AgentAbi.FLAG_SOURCE_INCOMPLETE;
        }
        c.header().set(CompletionFlyweight.LENGTH, kind, flags);
        c.requestId(requestId).result(ResultCode.OK).platformError(0)
            .grantedCapabilityBits(session.available)
            .targetCount(count).targetStride(stride).targetsOffset(CompletionFlyweight.LENGTH)
            .totalSize(total);
        resp.writeInt(respAt + CompletionFlyweight.RESERVED_OFFSET, 0);
        final GenerationFlyweight g = c.generation();
        g.generation(scene.sceneEpoch()).sceneEpoch(scene.sceneEpoch()).frameId(scene.frameId())
            .captureTimeNs(scene.captureTimeNs()).processId(scene.processId()).windowId(scene.windowId())
            .displayId(scene.displayId()).transformEpoch(scene.transformEpoch())
            .topologyEpoch(scene.topologyEpoch()).permissionEpoch(scene.permissionEpoch());
        // The scope is echoed resolved (§5.3).
        final long scopeAt = respAt + CompletionFlyweight.SCOPE_OFFSET;
        resp.write(scopeAt, req, scope.offset(), ScopeFlyweight.LENGTH);
        if (activeWindow) {
            resp.writeLong(scopeAt + ScopeFlyweight.STABLE_ID_OFFSET, resolvedId);
            resp.write(scopeAt + ScopeFlyweight.RECT_OFFSET, sb, scene.windowBoundsAt(), RectQ8.LENGTH);
        }
        return (int) total;
    }

    /**
     * Copies {@code length} consecutive scene records from {@code first}, as the scene has them:
     * extended roles and states included; the caller maps them down for a connection that did
     * not ask for them (§1.4).
     */
    private static void copyRecords(final BytesStore<?, ?> resp, final long out, final BytesStore<?, ?> sb,
        final ScenePacket scene, final int first, final int length) {
        if (length > 0) {
            resp.write(out, sb, scene.recordAt(first), (long) length * TargetFlyweight.LENGTH);
        }
    }

    /** §5.3: mode 0 or FUSED takes all; PIXEL needs NEURAL or PIXEL; SEMANTIC ACCESSIBILITY; GRID GRID. */
    /**
     * D19: whether the active window {@code windowId} holds a target from the accessibility source.
     * Its grid cells are then noise in a FUSED active-window observe (gtk3-demo's main window: 43
     * semantic targets, 56 cells), so they are left out; GRID mode, queries and the other scopes
     * still return them.
     */
    private static boolean hasSemantic(final ScenePacket scene, final long windowId, final BytesStore<?, ?> rectStore,
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

    private static boolean sourceMatches(final int mode, final int sourceBits) {
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

    private static boolean scopeMatches(
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
            default:
                return false;
        }
    }

    // ---------------------------------------------------------------- filters (§5.6)

    private boolean filtersMatch(
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
