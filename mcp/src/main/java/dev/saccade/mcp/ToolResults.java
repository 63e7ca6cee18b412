package dev.saccade.mcp;

import dev.saccade.client.AbiNames;
import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.GenerationFlyweight;
import dev.saccade.protocol.PhysicalStateFlyweight;
import dev.saccade.protocol.ScopeFlyweight;
import dev.saccade.protocol.TargetFlyweight;

/**
 * Renders the tool results of mcp.md §8 into a {@link JsonLineWriter}: the observe/query result
 * with its structured scene, the act result for every service answer, and the tool-level error
 * of the "Error channels" table. A read completion is checked (stride 88, records and texts
 * inside the reply) before a byte of it is written (M5).
 */
final class ToolResults {
    private final TargetFlyweight target = new TargetFlyweight();
    private final ActionResultFlyweight row = new ActionResultFlyweight();
    private final SceneText sceneText = new SceneText();

    /** {@code {"content":[{"type":"text","text":M}],"isError":true}}. */
    static void error(final JsonLineWriter w, final String message) {
        w.startObject();
        text(w, message);
        w.name("isError").bool(true);
        w.endObject();
    }

    private static void text(final JsonLineWriter w, final String message) {
        w.name("content").startArray().startObject()
            .name("type").string("text")
            .name("text").string(message)
            .endObject().endArray();
    }

    /** {@code hint} as a sentence: capitalised, ending in a period. */
    static String sentence(final String hint) {
        return Character.toUpperCase(hint.charAt(0)) + hint.substring(1) + ".";
    }

    /**
     * Whether an OK read completion of {@code length} bytes, which the client already validated
     * ({@link dev.saccade.protocol.CompletionValidator}: records and texts inside the reply), can
     * be rendered: MCP renders 88-byte records only (M5), else "Invalid service response".
     */
    boolean renderable(final CompletionFlyweight c, final long length) {
        return c.targetStride() == TargetFlyweight.LENGTH && c.targetsOffset() >= CompletionFlyweight.LENGTH
            && c.targetsOffset() <= length;
    }

    /**
     * The OK observe/query result; {@link #renderable} said yes. The text block is the
     * {@link SceneText} view of at most {@code maximumTextBytes}; structuredContent is the whole scene.
     */
    void read(final JsonLineWriter w, final CompletionFlyweight c, final int maximumTextBytes) {
        final GenerationFlyweight g = c.generation();
        final long count = c.targetCount();
        w.startObject();
        text(w, sceneText.render(c, maximumTextBytes));
        w.name("structuredContent").startObject();
        w.name("generation").u64(g.generation());
        w.name("epochs").startObject()
            .name("scene").u64(g.sceneEpoch())
            .name("frame").u64(g.frameId())
            .name("captureTimeNs").u64(g.captureTimeNs())
            .name("transform").u64(g.transformEpoch())
            .name("permission").u64(g.permissionEpoch())
            .name("topology").u64(g.topologyEpoch())
            .endObject();
        w.name("context").startObject()
            .name("processId").u64(g.processId())
            .name("windowId").u64(g.windowId())
            .name("displayId").u64(g.displayId())
            .endObject();
        final ScopeFlyweight s = c.scope();
        w.name("scope").startObject()
            .name("kind").string(AbiNames.SCOPE_KINDS.wordOf(s.kind(), "unknown"))
            .name("sourceMode").string(AbiNames.SOURCE_MODES.wordOf(s.sourceMode(), "unknown"))
            .name("stableId").u64(s.stableId())
            .name("xQ8").number(s.rectXQ8())
            .name("yQ8").number(s.rectYQ8())
            .name("widthQ8").number(s.rectWidthQ8())
            .name("heightQ8").number(s.rectHeightQ8())
            .endObject();
        final int flags = c.header().flags();
        w.name("truncated").bool((flags & AgentAbi.FLAG_TRUNCATED) != 0);
        w.name("sourceIncomplete").bool((flags & AgentAbi.FLAG_SOURCE_INCOMPLETE) != 0);
        w.name("targets").startArray();
        for (long i = 0; i < count; i++) {
            final TargetFlyweight t = target.wrap(c.bytes(), c.offset() + c.targetsOffset() + i * TargetFlyweight.LENGTH);
            w.startObject()
                .name("index").number(i)
                .name("id").u64(t.targetId())
                .name("parentId").u64(t.parentId())
                .name("windowId").u64(t.windowId())
                .name("displayId").u64(t.displayId())
                .name("role").string(AbiNames.ROLES.wordOf(t.role(), "unknown"))
                .name("roleCode").number(t.role())
                .name("capabilities").number(Integer.toUnsignedLong(t.capabilityBits()))
                .name("flags").number(Integer.toUnsignedLong(t.flags()))
                .name("states").startArray();
            states(w, t.states());
            w.endArray()
                .name("sourceBits").number(t.sourceBits())
                .name("confidenceQ16").number(t.confidenceQ16())
                .name("order").number(t.order())
                .name("xQ8").number(t.boundsXQ8())
                .name("yQ8").number(t.boundsYQ8())
                .name("widthQ8").number(t.boundsWidthQ8())
                .name("heightQ8").number(t.boundsHeightQ8())
                .name("safeXQ8").number(t.safePointXQ8())
                .name("safeYQ8").number(t.safePointYQ8());
            if (t.textSize() != 0) {
                w.name("text").utf8(c.bytes(), c.offset() + t.textOffset(), (int) t.textSize());
            }
            w.endObject();
        }
        w.endArray();
        w.endObject();
        w.endObject();
    }

    /** The text view of an OK read completion that {@link #renderable} accepted (act's observeAfter). */
    String sceneText(final CompletionFlyweight c, final int maximumTextBytes) {
        return sceneText.render(c, maximumTextBytes);
    }

    /** The words of a target's state bits (§2 "Target states"), in bit order. */
    private static void states(final JsonLineWriter w, final int states) {
        for (int bits = states; bits != 0; bits &= bits - 1) {
            final String word = AbiNames.STATES.wordOf(Integer.lowestOneBit(bits));
            if (word != null) {
                w.string(word);
            }
        }
    }

    /**
     * The act result of any service answer (the completion validated, rows inside it); a rejection
     * carries the failed {@code check} and the {@code hint} of {@link RejectionReasons} (either may be null).
     */
    void act(final JsonLineWriter w, final ActionCompletionFlyweight c, final String check, final String hint,
        final String after, final ActionEffect effect) {
        final int result = c.result();
        final String effectHint = effect == null ? null : effect.hint();
        final String completed = "Action completed."
            + (effectHint == null ? "" : " Nothing changed on screen: " + sentence(effectHint));
        w.startObject();
        text(w, result == 0 ? (after == null ? completed : completed + " The active window now:\n" + after)
            : "Action rejected: " + AbiNames.resultText(result) + "." + (hint == null ? "" : " " + sentence(hint))
                + (effectHint == null ? "" : " Nothing changed on screen: " + sentence(effectHint))
                + (after == null ? "" : "\nThe active window now:\n" + after));
        w.name("structuredContent").startObject()
            .name("result").number(result)
            .name("resultText").string(AbiNames.resultText(result))
            .name("platformError").number(c.platformError())
            .name("completedActions").number(c.completedActionCount())
            .name("failedAction").number(c.failedActionIndex())
            .name("generation").u64(c.validatedGeneration());
        final PhysicalStateFlyweight p = c.physicalState();
        w.name("physical").startObject()
            .name("xQ8").number(p.pointerXQ8())
            .name("yQ8").number(p.pointerYQ8())
            .name("buttons").number(Integer.toUnsignedLong(p.buttons()))
            .name("modifiers").number(Integer.toUnsignedLong(p.modifiers()))
            .name("userModifiers").number(Integer.toUnsignedLong(p.userModifiers()))
            .name("activeLeaseId").u64(p.activeLeaseId())
            .name("permissionEpoch").u64(p.permissionEpoch())
            .name("sequence").u64(p.physicalSequence())
            .name("flags").number(Integer.toUnsignedLong(p.flags()))
            .endObject();
        if ((c.header().flags() & AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE) != 0) {
            final GenerationFlyweight n = c.nextGeneration();
            w.name("nextGeneration").startObject()
                .name("generation").u64(n.generation())
                .name("sceneEpoch").u64(n.sceneEpoch())
                .name("frameId").u64(n.frameId())
                .name("captureTimeNs").u64(n.captureTimeNs())
                .name("processId").u64(n.processId())
                .name("windowId").u64(n.windowId())
                .name("displayId").u64(n.displayId())
                .endObject();
        }
        final long rows = c.actionResultCount();
        final long stride = c.actionResultStride();
        if (rows != 0 && stride == ActionResultFlyweight.LENGTH
            && c.actionResultsOffset() + rows * stride <= c.totalSize()) {
            w.name("actions").startArray();
            for (long i = 0; i < rows; i++) {
                final ActionResultFlyweight r = row.wrap(c.bytes(), c.offset() + c.actionResultsOffset() + i * stride);
                w.startObject()
                    .name("index").number(r.actionIndex())
                    .name("kind").number(r.kind())
                    .name("result").number(r.result())
                    .name("resultText").string(AbiNames.resultText(r.result()))
                    .name("platformError").number(r.platformError())
                    .name("targetId").u64(r.resolvedTargetId())
                    .name("secondaryTargetId").u64(r.resolvedSecondaryTargetId())
                    .name("validatedGeneration").u64(r.validatedGeneration())
                    .name("flags").number(Integer.toUnsignedLong(r.flags()))
                    .endObject();
            }
            w.endArray();
        }
        if (check != null) {
            w.name("reason").string(check);
        }
        if (hint != null) {
            w.name("hint").string(hint);
        }
        // mcp.md §7: what the scene showed after the action
        w.name("effect").string(effect == null ? ActionEffect.UNVERIFIABLE : effect.effect());
        if (effect != null && !effect.observed().isEmpty()) {
            w.name("observed").startArray();
            effect.observed().forEach(w::string);
            w.endArray();
        }
        if (effectHint != null) {
            w.name("effectHint").string(effectHint);
        }
        w.endObject();
        w.name("isError").bool(result != 0);
        w.endObject();
    }
}
