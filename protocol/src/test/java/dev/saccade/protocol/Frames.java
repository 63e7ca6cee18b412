package dev.saccade.protocol;

import java.nio.charset.StandardCharsets;
import net.openhft.chronicle.bytes.BytesStore;

/** Builds the spec's seed messages (conformance cases 6, 11 and fixture F) as byte arrays. */
public final class Frames {
    public static final long NOW_NS = 1;

    private Frames() {
    }

    public static BytesStore<?, byte[]> store(final byte[] frame) {
        return BytesStore.wrap(frame);
    }

    public static byte[] hello(final long requestId, final int requested) {
        final byte[] f = new byte[HelloRequestFlyweight.LENGTH];
        final HelloRequestFlyweight h = new HelloRequestFlyweight().wrap(store(f), 0);
        h.header().set(HelloRequestFlyweight.LENGTH, AgentAbi.HELLO_REQUEST, 0);
        h.requestId(requestId).requestedCapabilityBits(requested).clientNonce(0, 0x1111).clientNonce(1, 0x2222);
        return f;
    }

    /** Seed of case 11: DESKTOP, LATEST_VALID, max 1, stride 88, capacity 4,096, OBSERVE. */
    public static byte[] observe() {
        final byte[] f = new byte[ObserveRequestFlyweight.LENGTH];
        final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(store(f), 0);
        o.header().set(ObserveRequestFlyweight.LENGTH, AgentAbi.OBSERVE_REQUEST, 0);
        o.requestId(9);
        o.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.FUSED);
        o.freshness().policy(FreshnessPolicy.LATEST_VALID);
        o.requestedCapabilityBits(Capability.OBSERVE).maximumTargets(1).targetStride(88).totalCapacity(4096);
        return f;
    }

    /** Seed of case 11: no filters, max 1, filter_stride 72, total_size 112. */
    public static byte[] query() {
        final byte[] f = new byte[QueryRequestFlyweight.LENGTH];
        final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(store(f), 0);
        q.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
        q.requestId(10);
        q.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.FUSED);
        q.freshness().policy(FreshnessPolicy.LATEST_VALID);
        q.requestedCapabilityBits(Capability.OBSERVE).maximumResults(1).filterStride(72)
            .filtersOffset(QueryRequestFlyweight.LENGTH).totalSize(QueryRequestFlyweight.LENGTH);
        return f;
    }

    /** Query of cases 26–31: one filter, then its text right after the filter array. */
    public static byte[] queryWithText(final int textMatch, final String text) {
        final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        final int total = QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH + utf8.length;
        final byte[] f = new byte[total];
        final BytesStore<?, byte[]> s = store(f);
        final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(s, 0);
        q.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
        q.requestId(11).generation(42);
        q.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.FUSED);
        q.freshness().policy(FreshnessPolicy.LATEST_VALID);
        q.requestedCapabilityBits(Capability.OBSERVE).maximumResults(10).filterCount(1).filterStride(72)
            .filtersOffset(QueryRequestFlyweight.LENGTH).totalSize(total);
        new QueryFilterFlyweight().wrap(s, QueryRequestFlyweight.LENGTH)
            .flags(FilterFlag.TEXT).textMatch(textMatch)
            .textOffset(QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH).textSize(utf8.length);
        System.arraycopy(utf8, 0, f, QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH, utf8.length);
        return f;
    }

    /** Seed of case 11: one ABORT, deadline 2, POINTER. */
    public static byte[] abortBatch() {
        final int total = ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH;
        final byte[] f = new byte[total];
        final BytesStore<?, byte[]> s = store(f);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(s, 0);
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, 0);
        b.requestId(12).requestedCapabilityBits(Capability.POINTER).policy(AgentAbi.POLICY_STOP_ON_FAILURE)
            .deadlineNs(2).actionCount(1).actionStride(80).actionsOffset(ActionBatchFlyweight.LENGTH)
            .payloadOffset(total).payloadSize(0).totalSize(total);
        new ActionFlyweight().wrap(s, ActionBatchFlyweight.LENGTH).kind(ActionKind.ABORT);
        return f;
    }

    /** A batch with one TEXT action typing {@code text} into target 11. */
    public static byte[] textBatch(final String text) {
        final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        final int payloadAt = ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH;
        final int total = payloadAt + utf8.length;
        final byte[] f = new byte[total];
        final BytesStore<?, byte[]> s = store(f);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(s, 0);
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, 0);
        b.requestId(13).requestedCapabilityBits(Capability.POINTER | Capability.KEYBOARD)
            .policy(AgentAbi.POLICY_STOP_ON_FAILURE).deadlineNs(2)
            .actionCount(1).actionStride(80).actionsOffset(ActionBatchFlyweight.LENGTH)
            .payloadOffset(payloadAt).payloadSize(utf8.length).totalSize(total);
        b.preconditions().flags(PreconditionFlag.GENERATION).generation(42);
        new ActionFlyweight().wrap(s, ActionBatchFlyweight.LENGTH).kind(ActionKind.TEXT).targetId(11)
            .buttonBits(Button.LEFT).payloadOffset(0).payloadSize(utf8.length);
        System.arraycopy(utf8, 0, f, payloadAt, utf8.length);
        return f;
    }

    public static byte[] helloCompletion() {
        final byte[] f = new byte[HelloCompletionFlyweight.LENGTH];
        new ErrorCompletions().writeHello(store(f), 0, 7, ResultCode.OK, Capability.OBSERVE, 0xABCDL, 0x1234L);
        return f;
    }

    /** Fixture F's scene as an observe completion: T11 "Button", T12 "Cancel" (case 14). */
    public static byte[] observeCompletion() {
        final int total = 356;
        final byte[] f = new byte[total];
        final BytesStore<?, byte[]> s = store(f);
        final CompletionFlyweight c = new CompletionFlyweight().wrap(s, 0);
        c.header().set(CompletionFlyweight.LENGTH, AgentAbi.OBSERVE_COMPLETION, AgentAbi.FLAG_SOURCE_INCOMPLETE);
        c.requestId(9).grantedCapabilityBits(0x17).targetCount(2).targetStride(88).targetsOffset(168)
            .totalSize(total);
        c.generation().generation(42).sceneEpoch(42).frameId(43).captureTimeNs(49).processId(700).windowId(7)
            .displayId(8).transformEpoch(46).topologyEpoch(47).permissionEpoch(9);
        c.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.FUSED);
        final TargetFlyweight t = new TargetFlyweight();
        t.wrap(s, 168).targetId(11).windowId(7).displayId(8).bounds(100 * 256, 200 * 256, 300 * 256, 400 * 256)
            .safePoint(250 * 256, 300 * 256).confidenceQ16(65000).role(Role.BUTTON).sourceBits(SourceBit.NEURAL)
            .capabilityBits(0x143).flags(TargetFlag.ACTIONABLE).textOffset(344).textSize(6);
        t.wrap(s, 256).targetId(12).bounds(100 * 256, 200 * 256, 300 * 256, 400 * 256)
            .safePoint(250 * 256, 300 * 256).confidenceQ16(65000).role(Role.LINK).sourceBits(SourceBit.NEURAL)
            .capabilityBits(0x143).flags(TargetFlag.ACTIONABLE).textOffset(350).textSize(6).order(1);
        System.arraycopy("ButtonCancel".getBytes(StandardCharsets.UTF_8), 0, f, 344, 12);
        return f;
    }

    /** An action completion with two rows: CLICK failed TARGET_NOT_FOUND, then OK. */
    public static byte[] actionCompletion() {
        final int total = ActionCompletionFlyweight.LENGTH + 2 * ActionResultFlyweight.LENGTH;
        final byte[] f = new byte[total];
        final BytesStore<?, byte[]> s = store(f);
        final ActionCompletionFlyweight c = new ActionCompletionFlyweight().wrap(s, 0);
        c.header().set(ActionCompletionFlyweight.LENGTH, AgentAbi.ACTION_COMPLETION, 0);
        c.requestId(3).result(ResultCode.TARGET_NOT_FOUND).platformError(ResultCode.PLATFORM_NOT_FOUND)
            .completedActionCount(1).failedActionIndex(0).actionResultCount(2).actionResultStride(48)
            .actionResultsOffset(192).totalSize(total).validatedGeneration(42);
        c.physicalState().pointer(123 * 256, 456 * 256).permissionEpoch(9).physicalSequence(17);
        final ActionResultFlyweight r = new ActionResultFlyweight();
        r.wrap(s, 192).actionIndex(0).kind(ActionKind.CLICK).result(ResultCode.TARGET_NOT_FOUND)
            .platformError(ResultCode.PLATFORM_NOT_FOUND).resolvedTargetId(99).validatedGeneration(42);
        r.wrap(s, 240).actionIndex(1).kind(ActionKind.CLICK).resolvedTargetId(12).validatedGeneration(42);
        return f;
    }
}
