package dev.saccade.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Renders a completion as readable JSON through a streaming {@link JsonGenerator}, one record
 * at a time: enumerations and bit sets by name, coordinates in desktop units, and every 64-bit
 * value as a decimal string (JSON numbers lose precision above 2^53). The frame must have
 * passed {@link CompletionValidator}; then nothing outside it is read. Used by
 * {@code saccade --json} and the MCP adapter; not on the owner thread.
 */
public final class CompletionJson {
    private final HelloCompletionFlyweight hello = new HelloCompletionFlyweight();
    private final CompletionFlyweight read = new CompletionFlyweight();
    private final TargetFlyweight target = new TargetFlyweight();
    private final ActionCompletionFlyweight action = new ActionCompletionFlyweight();
    private final ActionResultFlyweight row = new ActionResultFlyweight();
    private byte[] text = new byte[256];

    /** Writes one JSON object for the completion at {@code at}. */
    public void write(final JsonGenerator g, final BytesStore<?, ?> frame, final long at) throws IOException {
        final int kind = frame.readInt(at + HeaderFlyweight.MESSAGE_KIND_OFFSET);
        switch (kind) {
            case AgentAbi.HELLO_COMPLETION:
                writeHello(g, hello.wrap(frame, at));
                break;
            case AgentAbi.OBSERVE_COMPLETION:
            case AgentAbi.QUERY_COMPLETION:
                writeRead(g, read.wrap(frame, at));
                break;
            case AgentAbi.ACTION_COMPLETION:
                writeAction(g, action.wrap(frame, at));
                break;
            default:
                throw new IllegalArgumentException("not a completion kind: " + kind);
        }
    }

    private static void writeStatus(
        final JsonGenerator g, final int kind, final long requestId, final int result, final int platformError)
        throws IOException {
        g.writeStringField("kind", AgentAbi.kindName(kind));
        g.writeStringField("request_id", Long.toUnsignedString(requestId));
        g.writeStringField("result", ResultCode.name(result));
        g.writeNumberField("result_code", result);
        g.writeNumberField("platform_error", platformError);
    }

    private static void writeHello(final JsonGenerator g, final HelloCompletionFlyweight h) throws IOException {
        g.writeStartObject();
        writeStatus(g, h.header().messageKind(), h.requestId(), h.result(), h.platformError());
        writeBits(g, "granted", h.grantedCapabilityBits(), Capability.NAMES);
        g.writeStringField("service_nonce", hex16(h.serviceNonce(0), h.serviceNonce(1)));
        g.writeEndObject();
    }

    private void writeRead(final JsonGenerator g, final CompletionFlyweight c) throws IOException {
        g.writeStartObject();
        writeStatus(g, c.header().messageKind(), c.requestId(), c.result(), c.platformError());
        writeBits(g, "flags", c.header().flags(), AgentAbi.COMPLETION_FLAG_NAMES);
        writeBits(g, "granted", c.grantedCapabilityBits(), Capability.NAMES);
        g.writeFieldName("generation");
        writeGeneration(g, c.generation());
        g.writeFieldName("scope");
        writeScope(g, c.scope());
        final long count = c.targetCount();
        g.writeNumberField("target_count", count);
        g.writeArrayFieldStart("targets");
        final long stride = c.targetStride();
        final long first = c.offset() + c.targetsOffset();
        for (long i = 0; i < count; i++) {
            writeTarget(g, target.wrap(c.bytes(), first + i * stride), c.bytes(), c.offset());
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private void writeTarget(
        final JsonGenerator g, final TargetFlyweight t, final BytesStore<?, ?> frame, final long frameAt)
        throws IOException {
        g.writeStartObject();
        g.writeStringField("target_id", Long.toUnsignedString(t.targetId()));
        g.writeStringField("parent_id", Long.toUnsignedString(t.parentId()));
        g.writeStringField("window_id", Long.toUnsignedString(t.windowId()));
        g.writeStringField("display_id", Long.toUnsignedString(t.displayId()));
        g.writeStringField("role", Role.name(t.role()));
        g.writeFieldName("bounds");
        writeRect(g, t.boundsXQ8(), t.boundsYQ8(), t.boundsWidthQ8(), t.boundsHeightQ8());
        g.writeFieldName("safe_point");
        writePoint(g, t.safePointXQ8(), t.safePointYQ8());
        writeBits(g, "capabilities", t.capabilityBits(), TargetCapability.NAMES);
        writeBits(g, "flags", t.flags(), TargetFlag.NAMES);
        writeBits(g, "sources", t.sourceBits(), SourceBit.NAMES);
        if (t.states() != 0) {
            writeBits(g, "states", t.states(), TargetState.NAMES); // only on a connection that asked (§1.4)
        }
        g.writeNumberField("confidence_q16", t.confidenceQ16());
        g.writeNumberField("order", t.order());
        final long size = t.textSize();
        if (size != 0) {
            g.writeFieldName("text");
            writeText(g, frame, frameAt + t.textOffset(), (int) size);
        }
        g.writeEndObject();
    }

    private void writeAction(final JsonGenerator g, final ActionCompletionFlyweight c) throws IOException {
        g.writeStartObject();
        writeStatus(g, c.header().messageKind(), c.requestId(), c.result(), c.platformError());
        writeBits(g, "flags", c.header().flags(), AgentAbi.COMPLETION_FLAG_NAMES);
        g.writeNumberField("completed_action_count", c.completedActionCount());
        g.writeFieldName("failed_action_index");
        if (c.failedActionIndex() == AgentAbi.NO_FAILED_ACTION) {
            g.writeNull();
        } else {
            g.writeNumber(c.failedActionIndex());
        }
        g.writeStringField("validated_generation", Long.toUnsignedString(c.validatedGeneration()));
        final long count = c.actionResultCount();
        g.writeArrayFieldStart("results");
        final long stride = c.actionResultStride();
        final long first = c.offset() + c.actionResultsOffset();
        for (long i = 0; i < count; i++) {
            final ActionResultFlyweight r = row.wrap(c.bytes(), first + i * stride);
            g.writeStartObject();
            g.writeNumberField("action_index", r.actionIndex());
            g.writeStringField("kind", ActionKind.name(r.kind()));
            g.writeStringField("result", ResultCode.name(r.result()));
            g.writeNumberField("result_code", r.result());
            g.writeNumberField("platform_error", r.platformError());
            g.writeStringField("resolved_target_id", Long.toUnsignedString(r.resolvedTargetId()));
            g.writeStringField("resolved_secondary_target_id", Long.toUnsignedString(r.resolvedSecondaryTargetId()));
            g.writeStringField("validated_generation", Long.toUnsignedString(r.validatedGeneration()));
            g.writeEndObject();
        }
        g.writeEndArray();
        final PhysicalStateFlyweight p = c.physicalState();
        g.writeObjectFieldStart("physical_state");
        g.writeFieldName("pointer");
        writePoint(g, p.pointerXQ8(), p.pointerYQ8());
        writeBits(g, "buttons", p.buttons(), Button.NAMES);
        writeBits(g, "modifiers", p.modifiers(), Modifier.NAMES);
        writeBits(g, "user_modifiers", p.userModifiers(), Modifier.NAMES);
        g.writeStringField("active_lease_id", Long.toUnsignedString(p.activeLeaseId()));
        g.writeStringField("permission_epoch", Long.toUnsignedString(p.permissionEpoch()));
        g.writeStringField("physical_sequence", Long.toUnsignedString(p.physicalSequence()));
        writeBits(g, "flags", p.flags(), PhysicalFlag.NAMES);
        g.writeEndObject();
        if ((c.header().flags() & AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE) != 0) {
            g.writeFieldName("next_generation");
            writeGeneration(g, c.nextGeneration());
        }
        g.writeEndObject();
    }

    private static void writeGeneration(final JsonGenerator g, final GenerationFlyweight gen) throws IOException {
        g.writeStartObject();
        g.writeStringField("generation", Long.toUnsignedString(gen.generation()));
        g.writeStringField("scene_epoch", Long.toUnsignedString(gen.sceneEpoch()));
        g.writeStringField("frame_id", Long.toUnsignedString(gen.frameId()));
        g.writeStringField("capture_time_ns", Long.toUnsignedString(gen.captureTimeNs()));
        g.writeStringField("process_id", Long.toUnsignedString(gen.processId()));
        g.writeStringField("window_id", Long.toUnsignedString(gen.windowId()));
        g.writeStringField("display_id", Long.toUnsignedString(gen.displayId()));
        g.writeStringField("transform_epoch", Long.toUnsignedString(gen.transformEpoch()));
        g.writeStringField("topology_epoch", Long.toUnsignedString(gen.topologyEpoch()));
        g.writeStringField("permission_epoch", Long.toUnsignedString(gen.permissionEpoch()));
        g.writeEndObject();
    }

    private static void writeScope(final JsonGenerator g, final ScopeFlyweight s) throws IOException {
        g.writeStartObject();
        g.writeStringField("kind", ScopeKind.name(s.kind()));
        g.writeStringField("source_mode", s.sourceMode() == 0 ? "FUSED" : SourceMode.name(s.sourceMode()));
        g.writeStringField("stable_id", Long.toUnsignedString(s.stableId()));
        g.writeFieldName("rect");
        writeRect(g, s.rectXQ8(), s.rectYQ8(), s.rectWidthQ8(), s.rectHeightQ8());
        g.writeEndObject();
    }

    private static void writeRect(final JsonGenerator g, final int x, final int y, final int w, final int h)
        throws IOException {
        g.writeStartObject();
        writeQ8(g, "x", x);
        writeQ8(g, "y", y);
        writeQ8(g, "width", w);
        writeQ8(g, "height", h);
        g.writeEndObject();
    }

    private static void writePoint(final JsonGenerator g, final int x, final int y) throws IOException {
        g.writeStartObject();
        writeQ8(g, "x", x);
        writeQ8(g, "y", y);
        g.writeEndObject();
    }

    /** Desktop units: a whole number where the Q8 value is one, else the exact binary fraction. */
    private static void writeQ8(final JsonGenerator g, final String name, final int q8) throws IOException {
        g.writeFieldName(name);
        if ((q8 & 0xFF) == 0) {
            g.writeNumber(q8 >> 8);
        } else {
            g.writeNumber(q8 / (double) RectQ8.ONE);
        }
    }

    /** A bit set as an array of names; bits the ABI does not name appear as hex strings. */
    static void writeBits(final JsonGenerator g, final String name, final int bits, final String[] names)
        throws IOException {
        g.writeArrayFieldStart(name);
        for (int bit = 0; bit < Integer.SIZE; bit++) {
            if ((bits & (1 << bit)) != 0) {
                final String known = bit < names.length ? names[bit] : null;
                g.writeString(known != null ? known : "0x" + Integer.toHexString(1 << bit));
            }
        }
        g.writeEndArray();
    }

    private void writeText(final JsonGenerator g, final BytesStore<?, ?> frame, final long at, final int size)
        throws IOException {
        if (text.length < size) {
            text = new byte[size];
        }
        frame.read(at, text, 0, size);
        if (Utf8.isStrict(frame, at, size)) {
            g.writeUTF8String(text, 0, size);
        } else {
            // A service never sends this; show what arrived rather than fail the whole view.
            g.writeString(new String(text, 0, size, StandardCharsets.UTF_8));
        }
    }

    private static String hex16(final long a, final long b) {
        return String.format("%016x%016x", a, b);
    }
}
