package dev.saccade.mcp;

import dev.saccade.client.ActionBatchBuilder;
import dev.saccade.client.ActionExchange;
import dev.saccade.client.AgentClient;
import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.Q8Point;
import dev.saccade.client.ReadExchange;
import dev.saccade.client.ReadFreshness;
import dev.saccade.client.ReadScope;
import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import java.io.IOException;
import java.time.Duration;

/**
 * {@code saccade_act} (mcp.md §7): the arguments become a one-action batch through
 * {@link ActionBatchBuilder} and go over {@link ActionExchange}, the builder and round trip of
 * {@code saccade act} (verifyNextGeneration included). Only the shape is checked here, in the
 * spec's order; what a kind may carry beyond that is the service's to reject. A batch is never
 * sent twice: if the link fails after it was sent, nobody knows whether it ran.
 */
final class ActTool implements Tool {
    static final String NAME = "saccade_act";
    static final long REQUEST_ID = 4;
    /** deadline_ns = now + 2 s. */
    static final long DEADLINE_NS = 2_000_000_000L;

    /** Input names, in the order of {@link #KIND_CODES}. */
    static final String[] KINDS = {
        "move", "hover", "click", "hold", "drag", "scroll", "key", "key-chord", "text", "window", "release",
        "text-select", "invoke", "cycle", "abort", "physical"};
    static final int[] KIND_CODES = {
        ActionKind.POINTER_MOVE, ActionKind.POINTER_HOVER, ActionKind.CLICK, ActionKind.HOLD, ActionKind.DRAG_DROP,
        ActionKind.SCROLL, ActionKind.KEY, ActionKind.KEY_CHORD, ActionKind.TEXT, ActionKind.WINDOW_ACTIVATE,
        ActionKind.RELEASE, ActionKind.TEXT_SELECT, ActionKind.INVOKE, ActionKind.WINDOW_CYCLE, ActionKind.ABORT,
        ActionKind.QUERY_PHYSICAL_STATE};
    private static final String[] TARGETS = {"generation", "targetId", "secondaryTargetId"};
    private static final String[] PRECONDITIONS = {"processId", "windowId", "displayId", "transformEpoch", "permissionEpoch"};
    private static final String[] U32_VALUES = {"button", "modifiers", "keyUsage", "repeat"};
    private static final String[] I32_VALUES = {"deltaXQ8", "deltaYQ8"};

    /** The observe of {@code observeAfter} (mcp.md §7): its own request id, after the batch's. */
    static final long AFTER_REQUEST_ID = 5;
    static final String OBSERVE_AFTER = "observeAfter";

    private final ActionExchange exchange = new ActionExchange();
    private final ActionEffect effect = new ActionEffect(McpConfiguration.effectWindowMs(),
        dev.saccade.client.BatchVerifier.SETTLE_DEFAULT_MS);
    /** The prepared action is one whose effect is looked for (mcp.md §7, "effect"). */
    private boolean lookForEffect;
    private final ReadExchange afterExchange = new ReadExchange();
    private final ObserveRequestBuilder afterRequest = new ObserveRequestBuilder().requestId(AFTER_REQUEST_ID)
        .maximumTargets(ObserveTool.DEFAULT_MAXIMUM).targetStride(TargetFlyweight.LENGTH)
        .totalCapacity(ObserveTool.TOTAL_CAPACITY)
        .scope(new ReadScope(ScopeKind.ACTIVE_WINDOW, SourceMode.FUSED, 0, null)).freshness(ReadFreshness.LATEST);
    private boolean observeAfter;
    private int afterTextBytes;
    private final ToolResults results;
    private ActionBatchBuilder batch;
    private RejectionReasons.Request asked;
    private final RejectionReasons reasons = new RejectionReasons();
    /** Values read by {@link #prepare}, by the index of their name in the arrays above. */
    private final long[] targets = new long[TARGETS.length];
    private final boolean[] targetPresent = new boolean[TARGETS.length];
    private final long[] preconditions = new long[PRECONDITIONS.length];
    private final boolean[] preconditionPresent = new boolean[PRECONDITIONS.length];
    private final long[] values = new long[U32_VALUES.length + I32_VALUES.length];
    /** durationMs in nanoseconds, 0 without it. */
    private long durationNs;

    ActTool(final ToolResults results) {
        this.results = results;
    }

    @Override
    public String prepare(final ToolArguments a) {
        // (1) kind
        if (a.enumeration("kind", KINDS) != ToolArguments.PRESENT) {
            return "Invalid action kind";
        }
        final int kind = KIND_CODES[(int) a.value()];
        // (2) generation and targets, (3) preconditions, (4) values
        if (!readU64(a, TARGETS, targets, targetPresent)) {
            return "Invalid action integer";
        }
        if (!readU64(a, PRECONDITIONS, preconditions, preconditionPresent)) {
            return "Invalid action precondition";
        }
        values[0] = Button.LEFT;
        values[1] = 0;
        values[2] = 0;
        values[3] = 1;
        for (int i = 0; i < U32_VALUES.length; i++) {
            final int status = a.u32(U32_VALUES[i]);
            if (status == ToolArguments.INVALID) {
                return "Invalid action value";
            }
            if (status == ToolArguments.PRESENT) {
                values[i] = a.value();
            }
        }
        for (int i = 0; i < I32_VALUES.length; i++) {
            final int status = a.i32(I32_VALUES[i]);
            if (status == ToolArguments.INVALID) {
                return "Invalid action value";
            }
            values[U32_VALUES.length + i] = status == ToolArguments.PRESENT ? a.value() : 0;
        }
        final int duration = a.u32("durationMs");
        if (duration == ToolArguments.INVALID
            || duration == ToolArguments.PRESENT && a.value() > AgentAbi.MAX_ACTION_DURATION_NS / 1_000_000L) {
            return "Invalid action value";
        }
        durationNs = duration == ToolArguments.PRESENT ? a.value() * 1_000_000L : 0;
        // (5), (6) the physical precondition
        final boolean physical = a.has("physicalSequence");
        if (!physical && (a.has("expectedButtons") || a.has("expectedModifiers"))) {
            return "Physical expectations require physicalSequence";
        }
        long sequence = 0;
        long expectedButtons = 0;
        long expectedModifiers = 0;
        if (physical) {
            if (a.u64("physicalSequence") != ToolArguments.PRESENT) {
                return "Invalid physical precondition";
            }
            sequence = a.value();
            int status = a.u32("expectedButtons");
            if (status == ToolArguments.INVALID) {
                return "Invalid physical precondition";
            }
            expectedButtons = status == ToolArguments.PRESENT ? a.value() : 0;
            status = a.u32("expectedModifiers");
            if (status == ToolArguments.INVALID) {
                return "Invalid physical precondition";
            }
            expectedModifiers = status == ToolArguments.PRESENT ? a.value() : 0;
        }
        // (7) flags
        final int dryRun = a.bool("dryRun");
        if (dryRun == ToolArguments.INVALID) {
            return "Invalid dryRun value";
        }
        final boolean isDryRun = dryRun == ToolArguments.PRESENT && a.value() == 1;
        final int verify = a.bool("verifyNextGeneration");
        if (verify == ToolArguments.INVALID) {
            return "Invalid verifyNextGeneration value";
        }
        final boolean isVerify = verify == ToolArguments.PRESENT && a.value() == 1;
        final int after = a.bool(OBSERVE_AFTER);
        if (after == ToolArguments.INVALID) {
            return "Invalid observeAfter value";
        }
        observeAfter = after == ToolArguments.PRESENT && a.value() == 1;
        afterTextBytes = SceneText.maximumBytes(a);
        if (afterTextBytes < 0) {
            return SceneText.INVALID_ARGUMENT;
        }
        // (8), (9) points
        final Q8Point point = pair(a, "xQ8", "yQ8");
        final Q8Point secondary = pair(a, "secondaryXQ8", "secondaryYQ8");
        if (point == BROKEN_PAIR || secondary == BROKEN_PAIR) {
            return "Action points require coordinate pairs";
        }
        final boolean dual = kind == ActionKind.DRAG_DROP || kind == ActionKind.TEXT_SELECT;
        if ((point != null && !takesPoints(kind)) || (secondary != null) != (point != null && dual)) {
            return "Invalid points for action kind";
        }
        // (10) backward
        final int backward = a.bool("backward");
        if (backward == ToolArguments.INVALID) {
            return "Invalid backward value";
        }
        final boolean isBackward = backward == ToolArguments.PRESENT && a.value() == 1;
        final int fill = a.bool("fill");
        if (fill == ToolArguments.INVALID) {
            return "Invalid fill value";
        }
        final boolean isFill = fill == ToolArguments.PRESENT && a.value() == 1;
        // (11) text
        final int text = a.text("text");
        if (text == ToolArguments.INVALID) {
            return "Invalid action text";
        }
        // (12) the window flags of agent-abi §5.14
        final int explicitWindow = a.bool("explicitWindow");
        if (explicitWindow == ToolArguments.INVALID) {
            return "Invalid explicitWindow value";
        }
        final boolean isExplicit = explicitWindow == ToolArguments.PRESENT && a.value() == 1;
        final int allowActivation = a.bool("allowActivation");
        if (allowActivation == ToolArguments.INVALID) {
            return "Invalid allowActivation value";
        }
        final boolean isAllowed = allowActivation == ToolArguments.PRESENT && a.value() == 1;
        if (isExplicit && !preconditionPresent[1]) {
            return "explicitWindow requires windowId";
        }

        final ActionBatchBuilder b = new ActionBatchBuilder().requestId(REQUEST_ID).kind(kind)
            .dryRun(isDryRun).verify(isVerify)
            .target(targets[1]).secondaryTarget(targets[2])
            .button((int) values[0]).modifiers((int) values[1]).keyUsage(values[2]).repeat(values[3])
            .deltasQ8((int) values[4], (int) values[5]).durationNs(durationNs)
            .backward(isBackward)
            .explicitWindow(isExplicit).allowActivation(isAllowed)
            .fill(isFill);
        if (targetPresent[0]) {
            b.expectGeneration(targets[0]);
        }
        if (preconditionPresent[0]) {
            b.expectProcess(preconditions[0]);
        }
        if (preconditionPresent[1]) {
            b.expectWindow(preconditions[1]);
        }
        if (preconditionPresent[2]) {
            b.expectDisplay(preconditions[2]);
        }
        if (preconditionPresent[3]) {
            b.expectTransform(preconditions[3]);
        }
        if (preconditionPresent[4]) {
            b.expectPermission(preconditions[4]);
        }
        if (physical) {
            b.expectPhysicalState((int) expectedButtons, (int) expectedModifiers, sequence);
        }
        if (point != null) {
            b.points(point, secondary);
        }
        if (text == ToolArguments.PRESENT) {
            b.text(a.text());
        }
        batch = b;
        lookForEffect = !isDryRun && ActionEffect.expectsEffect(kind);
        asked = new RejectionReasons.Request(kind, targets[1], targets[2], targetPresent[0], targets[0], point != null,
            point == null ? 0 : point.xQ8(), point == null ? 0 : point.yQ8(),
            secondary == null ? 0 : secondary.xQ8(), secondary == null ? 0 : secondary.yQ8());
        return null;
    }

    /** Marks a pair with one member or a non-i32 member. */
    private static final Q8Point BROKEN_PAIR = new Q8Point(0, 0);

    /** Both members as a point, null when both are absent, else {@link #BROKEN_PAIR}. */
    private static Q8Point pair(final ToolArguments a, final String x, final String y) {
        final int xStatus = a.i32(x);
        final int xValue = (int) a.value();
        final int yStatus = a.i32(y);
        if (xStatus == ToolArguments.ABSENT && yStatus == ToolArguments.ABSENT) {
            return null;
        }
        if (xStatus != ToolArguments.PRESENT || yStatus != ToolArguments.PRESENT) {
            return BROKEN_PAIR;
        }
        return new Q8Point(xValue, (int) a.value());
    }

    /** The point kinds of mcp.md §7. */
    private static boolean takesPoints(final int kind) {
        switch (kind) {
            case ActionKind.POINTER_MOVE:
            case ActionKind.POINTER_HOVER:
            case ActionKind.CLICK:
            case ActionKind.HOLD:
            case ActionKind.DRAG_DROP:
            case ActionKind.SCROLL:
            case ActionKind.TEXT:
            case ActionKind.TEXT_SELECT:
            case ActionKind.INVOKE:
                return true;
            default:
                return false;
        }
    }

    private static boolean readU64(final ToolArguments a, final String[] names, final long[] into,
        final boolean[] present) {
        for (int i = 0; i < names.length; i++) {
            final int status = a.u64(names[i]);
            if (status == ToolArguments.INVALID) {
                return false;
            }
            present[i] = status == ToolArguments.PRESENT;
            into[i] = present[i] ? a.value() : 0;
        }
        return true;
    }

    @Override
    public void call(final ServiceConnection service, final JsonLineWriter out) {
        final AgentClient client;
        try {
            client = service.client();
        } catch (final IOException e) {
            service.drop();
            ToolResults.error(out, McpServer.SERVICE_UNAVAILABLE);
            return;
        }
        ActionEffect seen = null;
        try {
            if (lookForEffect && effect.before(client)) {
                seen = effect;
            }
        } catch (final IOException e) {
            service.drop(); // nothing was sent
            ToolResults.error(out, McpServer.SERVICE_UNAVAILABLE);
            return;
        }
        final ActionCompletionFlyweight completion;
        try {
            // a timed action (§7 durationMs) runs for its duration within the deadline, which grows by it
            final int length = batch.deadlineNs(System.nanoTime() + DEADLINE_NS + durationNs)
                .writeTo(client.requestStore(), client.requestOffset());
            final Duration readTimeout = client.readTimeout();
            client.readTimeout(readTimeout.plusNanos(durationNs));
            try {
                completion = exchange.roundTrip(client, length);
            } finally {
                client.readTimeout(readTimeout);
            }
        } catch (final IOException e) {
            // Sent or not, it may have run: never resend. Reconnect now so the next call finds a link.
            service.drop();
            try {
                service.client();
            } catch (final IOException ignore) {
                service.drop(); // ignore: the next call tries again and reports unavailability then
            }
            ToolResults.error(out, "Action transport failed");
            return;
        }
        // a verified action that ran but changed nothing visible (TIMEOUT, every action done): its scene still helps
        final boolean ran = completion.result() == ResultCode.OK || (completion.result() == ResultCode.TIMEOUT
            && completion.failedActionIndex() == AgentAbi.NO_FAILED_ACTION);
        if (seen != null) {
            try {
                if (ran) {
                    seen.after(client, asked.kind(), asked.targetId());
                } else {
                    seen = null; // refused or failed: nothing to look for
                }
            } catch (final IOException e) {
                service.drop(); // the action's result is in hand: the effect stays unverifiable
            }
        }
        if (completion.result() != 0) {
            // The completion is the exchange's own copy: the reads that explain it do not overwrite it.
            reasons.explain(client, completion, asked);
            if (reasons.linkFailed()) {
                service.drop();
            }
            results.act(out, completion, reasons.check(), reasons.hint(),
                observeAfter && ran && !reasons.linkFailed() ? after(client, service) : null, seen);
        } else {
            results.act(out, completion, null, null, observeAfter ? after(client, service) : null, seen);
        }
    }

    /**
     * {@code observeAfter}: the active window's scene now (as saccade_observe renders it), read
     * once the action completed (and settled, with verifyNextGeneration), so the agent sees the
     * effect and has the ids and generation for its next action without another call. Null when
     * the read fails: the action's result stands alone, and the agent observes as before.
     */
    private String after(final AgentClient client, final ServiceConnection service) {
        try {
            final int length = afterRequest.writeTo(client.requestStore(), client.requestOffset());
            final CompletionFlyweight c = afterExchange.roundTrip(client, length, AFTER_REQUEST_ID,
                AgentAbi.OBSERVE_COMPLETION);
            if (c.result() != ResultCode.OK || !results.renderable(c, c.totalSize())) {
                return null;
            }
            return results.sceneText(c, afterTextBytes);
        } catch (final IOException e) {
            service.drop(); // the action's result is in hand; the next call connects again
            return null;
        }
    }
}
