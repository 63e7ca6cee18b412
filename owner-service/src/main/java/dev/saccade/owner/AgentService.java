package dev.saccade.owner;

import dev.saccade.owner.action.ActionConfiguration;
import dev.saccade.owner.action.ActionPlanner;
import dev.saccade.owner.action.InputExecutor;
import dev.saccade.owner.action.NoInputExecutor;
import dev.saccade.owner.action.SemanticInvoker;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.owner.scene.WindowScope;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ErrorCompletions;
import dev.saccade.protocol.FreshnessFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.HeaderFlyweight;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.RequestValidator;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeFlyweight;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import java.nio.ByteBuffer;
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
    /** Read once at start: the user's grant of SECURE_INPUT (D30). */
    private static final boolean SECURE_INPUT_GRANTED = ActionConfiguration.secureInputGranted();
    /** The read is parked on its channel; call {@link #onParkedTick} on later ticks. */
    public static final int PARKED = -2;

    private final SceneStore scenes;
    private final ActionPlanner planner;
    private final RequestValidator validator = new RequestValidator();
    private final ErrorCompletions errors = new ErrorCompletions();
    private final HelloRequestFlyweight hello = new HelloRequestFlyweight();
    private final ObserveRequestFlyweight observe = new ObserveRequestFlyweight();
    private final QueryRequestFlyweight query = new QueryRequestFlyweight();
    private final ReadMatcher matcher = new ReadMatcher();
    private final CompletionFlyweight completion = new CompletionFlyweight();
    private final SecureRandom nonces = new SecureRandom();

    /** Whole-desktop observe bodies, one per generation; null unless {@link #gatherReplies()}. */
    private ObserveBodies bodies;
    /** The reply just written sends its tail from {@link #bodies} (taken by {@link #takeReplyTail()}). */
    private boolean replyTail;
    // The body just written by writeBody: records and whether anything was cut.
    private long bodyCount;
    private boolean bodyTruncated;

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

    /**
     * From now on a whole-desktop observe may answer with a header in the response buffer and its
     * body in a buffer shared by every connection (see {@link ObserveBodies}): after each reply
     * the caller asks {@link #takeReplyTail()}, and tells {@link #replySent} when it is written.
     * For the owner loop, which writes replies with {@code FrameChannel}'s gathering write; a
     * caller that reads the response buffer itself must not turn this on. Call {@link #close()}.
     */
    public AgentService gatherReplies() {
        if (bodies == null) {
            bodies = new ObserveBodies();
        }
        return this;
    }

    /**
     * The buffer the reply just written takes its bytes from {@code CompletionFlyweight.LENGTH}
     * on (at the reply's own offsets; the response buffer holds only the header), or null when the
     * whole reply is in the response buffer. The tail stays valid until {@link #replySent} or
     * {@link #onDisconnect} for that session.
     */
    public ByteBuffer takeReplyTail() {
        if (!replyTail) {
            return null;
        }
        replyTail = false;
        return bodies.buffer();
    }

    /** The reply of {@code session} is written (or abandoned): a tail it sent from is free again. */
    public void replySent(final AgentSession session) {
        if (session.bodyLent) {
            session.bodyLent = false;
            bodies.giveBack();
        }
    }

    /** Frees the observe bodies' buffer (after the last reply). */
    public void close() {
        if (bodies != null) {
            bodies.close();
            bodies = null;
        }
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
        final int verdict = validator.validate(req, reqAt, reqLength, session.available, respCapacity, nowNs,
            session.apiVersion);
        if (verdict == RequestValidator.REJECT) {
            connectionsRejected++;
            return CLOSE;
        }
        if (verdict != RequestValidator.ACCEPT) {
            return echoVersion(session, resp, respAt,
                errors.writeForRequest(resp, respAt, req, reqAt, verdict, session.available));
        }
        switch (req.readInt(reqAt + HeaderFlyweight.MESSAGE_KIND_OFFSET)) {
            case AgentAbi.OBSERVE_REQUEST:
                return echoVersion(session, resp, respAt, serveObserve(session, req, reqAt, resp, respAt, nowNs, false));
            case AgentAbi.QUERY_REQUEST:
                return echoVersion(session, resp, respAt,
                    serveQuery(session, req, reqAt, resp, respAt, respCapacity, nowNs, false));
            default:
                return echoVersion(session, resp, respAt, parkBatch(session, planner.begin(session.batch,
                    session.available, session.leaseId, req, reqAt, resp, respAt, nowNs)));
        }
    }

    /** §1.4: a reply names the version its connection's Hello named. */
    private static int echoVersion(final AgentSession session, final BytesStore<?, ?> resp, final long respAt,
        final int reply) {
        if (reply > 0) {
            resp.writeInt(respAt + HeaderFlyweight.API_VERSION_OFFSET, session.apiVersion);
        }
        return reply;
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
            return echoVersion(session, resp, respAt, parkBatch(session, planner.resume(session.batch,
                session.available, session.leaseId, req, reqAt, resp, respAt, nowNs)));
        }
        if (req.readInt(reqAt + HeaderFlyweight.MESSAGE_KIND_OFFSET) == AgentAbi.OBSERVE_REQUEST) {
            return echoVersion(session, resp, respAt, serveObserve(session, req, reqAt, resp, respAt, nowNs, true));
        }
        return echoVersion(session, resp, respAt, serveQuery(session, req, reqAt, resp, respAt, respCapacity, nowNs, true));
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
        replySent(session);
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
            final int refused = errors.writeHello(resp, respAt, requestId, result, 0, 0, 0);
            if (requestId != 0 && AgentAbi.spoken(hello.header().apiVersion())) {
                resp.writeInt(respAt + HeaderFlyweight.API_VERSION_OFFSET, hello.header().apiVersion()); // D39
            }
            return refused;
        }
        final int granted = hello.requestedCapabilityBits() & Capability.POLICY;
        // §1.4: the flags a client asks for beyond the base ABI; unknown bits are not accepted, nor
        // SECURE_INPUT unless the user granted it to this owner (D30).
        final int accepted = hello.flags() & (SECURE_INPUT_GRANTED ? HelloFlag.KNOWN : HelloFlag.KNOWN & ~HelloFlag.SECURE_INPUT);
        session.authenticated = true;
        session.available = granted;
        session.helloFlags = accepted;
        session.apiVersion = hello.header().apiVersion();
        session.batch.helloFlags(accepted);
        session.batch.apiVersion(session.apiVersion);
        return echoVersion(session, resp, respAt, errors.writeHello(resp, respAt, requestId, ResultCode.OK, granted,
            accepted, nonces.nextLong(), nonces.nextLong()));
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
        if (session.apiVersion == AgentAbi.API_VERSION_1_2 && scope.kind() == ScopeKind.WINDOW
            && namedWindow(session, scene, scope) < 0) {
            return ResultCode.TARGET_NOT_FOUND; // §5.3: the named window is gone, or never was
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
        if (bodies != null && kind == AgentAbi.OBSERVE_COMPLETION && scope.kind() == ScopeKind.DESKTOP
            && stride == TargetFlyweight.LENGTH && sharedBody(session, scene, scope, req, reqAt, recordCapacity, laneLimit)) {
            writeHeader(kind, session, scene, requestId, scope, req, resp, respAt, stride, bodies.count(),
                bodies.total(), false);
            session.bodyLent = true;
            bodies.lend();
            replyTail = true;
            return (int) bodies.total();
        }
        final long total = writeBody(kind, session, scene, scope, req, reqAt, filtersOffset, filterCount, filterStride,
            resp, respAt, stride, recordCapacity, laneLimit);
        writeHeader(kind, session, scene, requestId, scope, req, resp, respAt, stride, bodyCount, total, bodyTruncated);
        return (int) total;
    }

    /**
     * Whether the whole-desktop observe's body for this generation, mode and view is (or, the
     * buffer being free, now is) in {@link #bodies}, whole and within the request's capacities.
     */
    private boolean sharedBody(
        final AgentSession session, final ScenePacket scene, final ScopeFlyweight scope,
        final BytesStore<?, ?> req, final long reqAt, final long recordCapacity, final long laneLimit) {
        final int mode = scope.sourceMode();
        final int view = session.helloFlags & (HelloFlag.EXTENDED_ROLES | HelloFlag.TARGET_STATES | HelloFlag.WINDOW_FACTS);
        if (!bodies.holds(scene, mode, view)) {
            if (!bodies.free()) {
                return false; // a reply still sends the last body: copy this one
            }
            final long total = writeBody(AgentAbi.OBSERVE_COMPLETION, session, scene, scope, req, reqAt, 0, 0, 0,
                bodies.store(), 0,
                TargetFlyweight.LENGTH, (AgentAbi.MAX_MESSAGE_BYTES - CompletionFlyweight.LENGTH) / TargetFlyweight.LENGTH,
                AgentAbi.MAX_MESSAGE_BYTES);
            bodies.built(scene, mode, view, bodyCount, total, bodyTruncated);
        }
        return !bodies.truncated() && bodies.count() <= recordCapacity && bodies.total() <= laneLimit;
    }

    /**
     * Writes the records and the text lane of a read after the completion header at
     * {@code respAt}; leaves the record count in {@link #bodyCount} and whether anything was cut
     * in {@link #bodyTruncated}.
     *
     * @return the reply's total size
     */
    private long writeBody(
        final int kind, final AgentSession session, final ScenePacket scene, final ScopeFlyweight scope,
        final BytesStore<?, ?> req, final long reqAt,
        final long filtersOffset, final long filterCount, final long filterStride,
        final BytesStore<?, ?> resp, final long respAt, final long stride, final long recordCapacity,
        final long laneLimit) {
        final BytesStore<?, ?> sb = scene.bytes();
        // WINDOW is a kind without a name for a base connection: it matches nothing (§4.2)
        final boolean namedWindow = namedWindow(session, scene, scope) >= 0;
        final int scopeKind = scope.kind() == ScopeKind.WINDOW && !namedWindow ? 0 : scope.kind();
        final int mode = scope.sourceMode();
        final boolean activeWindow = scopeKind == ScopeKind.ACTIVE_WINDOW;
        final long resolvedId = activeWindow ? scene.windowId() : scope.stableId();
        final BytesStore<?, ?> rectStore = activeWindow ? sb : req;
        final long rectAt = activeWindow ? scene.windowBoundsAt() : scope.offset() + ScopeFlyweight.RECT_OFFSET;

        final long recordsAt = respAt + CompletionFlyweight.LENGTH;
        final int targets = scene.targetCount();
        // D22: an active-window observe of a window that has accessible targets leaves its grid cells out
        final boolean noGrid = kind == AgentAbi.OBSERVE_COMPLETION && activeWindow
            && (mode == 0 || mode == SourceMode.FUSED) && ReadMatcher.hasSemantic(scene, resolvedId, rectStore, rectAt);
        final boolean baseRoles = (session.helloFlags & HelloFlag.EXTENDED_ROLES) == 0;
        // the states word: target states under TARGET_STATES, a window's facts under WINDOW_FACTS (§2)
        final int statesMask = ((session.helloFlags & HelloFlag.TARGET_STATES) != 0 ? TargetState.ALL : 0)
            | ((session.helloFlags & HelloFlag.WINDOW_FACTS) != 0 ? TargetState.WINDOW_FACTS : 0);
        final boolean noStates = statesMask != -1;
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
            if (!ReadMatcher.sourceMatches(mode, bits) || (noGrid && bits == SourceBit.GRID)
                || !ReadMatcher.scopeMatches(scopeKind, sb, at, resolvedId, scope.stableId(), rectStore, rectAt)
                || !matcher.filtersMatch(scene, at, req, reqAt, filtersOffset, filterCount, filterStride, baseRoles)) {
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
                    resp.writeInt(out + TargetFlyweight.STATES_OFFSET,
                        resp.readInt(out + TargetFlyweight.STATES_OFFSET) & statesMask);
                }
            }
        }
        if (namedWindow) {
            WindowScope.stampDispositions(resp, recordsAt, count, stride, session.helloFlags);
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

        bodyCount = count;
        bodyTruncated = truncated;
        return lane - respAt;
    }

    /** The completion header of an OK read (§5.5) at {@code respAt}, its scope echoed resolved. */
    private void writeHeader(
        final int kind, final AgentSession session, final ScenePacket scene, final long requestId,
        final ScopeFlyweight scope, final BytesStore<?, ?> req, final BytesStore<?, ?> resp, final long respAt,
        final long stride, final long count, final long total, final boolean truncated) {
        final boolean activeWindow = scope.kind() == ScopeKind.ACTIVE_WINDOW;
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
        // The scope is echoed resolved (§5.3); a named window's read describes that window's owner.
        final long scopeAt = respAt + CompletionFlyweight.SCOPE_OFFSET;
        resp.write(scopeAt, req, scope.offset(), ScopeFlyweight.LENGTH);
        final int window = namedWindow(session, scene, scope);
        if (window >= 0) {
            scene.writeGeneration(c.generation(), WindowScope.processId(scene, window), scope.stableId());
            resp.write(scopeAt + ScopeFlyweight.RECT_OFFSET, scene.bytes(), WindowScope.boundsAt(scene, window), RectQ8.LENGTH);
            return;
        }
        scene.writeGeneration(c.generation(), scene.processId(), scene.windowId());
        if (activeWindow) {
            resp.writeLong(scopeAt + ScopeFlyweight.STABLE_ID_OFFSET, scene.windowId());
            resp.write(scopeAt + ScopeFlyweight.RECT_OFFSET, scene.bytes(), scene.windowBoundsAt(), RectQ8.LENGTH);
        }
    }

    /**
     * The record index of the window a WINDOW read names, for a connection of API 0x00010002
     * (§5.3); -1 for any other read, or when the scene no longer has that window.
     */
    private static int namedWindow(final AgentSession session, final ScenePacket scene, final ScopeFlyweight scope) {
        return scope.kind() == ScopeKind.WINDOW && session.apiVersion == AgentAbi.API_VERSION_1_2
            ? WindowScope.windowIndex(scene, scope.stableId()) : -1;
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
}
