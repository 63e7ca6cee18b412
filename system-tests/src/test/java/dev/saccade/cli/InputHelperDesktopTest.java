package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.PreconditionFlag;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Input end to end on a real desktop: the owner service launches the real input helper
 * process, an agent finds zenity's entry field by query and types into it with TEXT and KEY
 * batches; the helper injects through XTest and zenity prints exactly what was typed.
 */
@WithTestDesktop(apps = DemoApp.ZENITY_ENTRY)
class InputHelperDesktopTest {
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void anAgentTypesIntoARealEntryThroughTheInputHelper(final TestDesktop desktop) throws Exception {
        final AppHandle zenity = desktop.apps().get(0);
        final DesktopOwner owner = DesktopOwner.withAccessibility(desktop, "saccade-input-e2e");
        try {
            try (AgentClient client = owner.connect(Duration.ofSeconds(30))) {
                final TargetFlyweight field = awaitEntry(client, zenity.windowId());
                final long fieldId = field.targetId();
                final long generation = lastGeneration;

                final String typed = "héllo wörld 😀";
                final ActionCompletionFlyweight text = send(client, typed.getBytes(StandardCharsets.UTF_8), a -> a
                    .kind(ActionKind.TEXT).targetId(fieldId).buttonBits(Button.LEFT), generation);
                assertEquals(ResultCode.OK, text.result(), ResultCode.name(text.result()));
                assertEquals(1, text.completedActionCount());
                assertEquals(0, text.physicalState().buttons(), "nothing held after the batch");

                final ActionCompletionFlyweight enter = send(client, new byte[0],
                    a -> a.kind(ActionKind.KEY).keyUsage(0x28), 0);
                assertEquals(ResultCode.OK, enter.result(), ResultCode.name(enter.result()));
            }
            assertEquals(0, zenity.awaitExit(20_000), "zenity accepted the entry");
            assertEquals("héllo wörld 😀", Files.readString(zenity.stdoutFile(), StandardCharsets.UTF_8).strip());
        } finally {
            owner.service.close(); // the helper's log is complete once the service stopped
            final Path log = owner.runtime.resolve("saccade-input-helper.log");
            if (Files.exists(log)) {
                System.out.println("---- input helper log ----\n" + Files.readString(log));
            }
            owner.close();
        }
    }

    private long lastGeneration;

    /** Queries until zenity's editable field is a target (AT-SPI publishes shortly after start). */
    private TargetFlyweight awaitEntry(final AgentClient client, final long window) throws Exception {
        return Await.probe(() -> {
            final BytesStore<?, ?> req = client.requestStore();
            final long at = client.requestOffset();
            final int total = QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH;
            req.zeroOut(at, at + total);
            final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(req, at);
            q.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
            q.requestId(2).requestedCapabilityBits(Capability.OBSERVE).maximumResults(10).filterCount(1)
                .filterStride(QueryFilterFlyweight.LENGTH).filtersOffset(QueryRequestFlyweight.LENGTH).totalSize(total);
            q.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.SEMANTIC);
            q.freshness().policy(FreshnessPolicy.LATEST_VALID);
            new QueryFilterFlyweight().wrap(req, at + QueryRequestFlyweight.LENGTH).flags(FilterFlag.ROLE).role(Role.TEXT_FIELD);
            client.send(total);
            final AgentClient.Reply reply = client.receive(AgentAbi.QUERY_COMPLETION);
            final CompletionFlyweight c = new CompletionFlyweight().wrap(reply.bytes(), reply.offset());
            lastGeneration = c.generation().generation();
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(reply.bytes(),
                    reply.offset() + c.targetsOffset() + (long) i * c.targetStride());
                if (t.windowId() == window && (t.flags() & dev.saccade.protocol.TargetFlag.ACTIONABLE) != 0) {
                    final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[TargetFlyweight.LENGTH]);
                    copy.write(0, reply.bytes(), t.offset(), TargetFlyweight.LENGTH);
                    return new TargetFlyweight().wrap(copy, 0);
                }
            }
            return null;
        }, Objects::nonNull, Duration.ofSeconds(30),
            none -> "zenity's entry as an actionable TEXT_FIELD target; last generation " + lastGeneration);
    }

    /** A live one-action batch; {@code generation} 0 sets no precondition. */
    static ActionCompletionFlyweight send(final AgentClient client, final byte[] payload,
        final java.util.function.Consumer<ActionFlyweight> action, final long generation) throws Exception {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int payloadAt = ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH;
        final int total = payloadAt + payload.length;
        req.zeroOut(at, at + total);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(req, at);
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, 0);
        b.requestId(5).requestedCapabilityBits(Capability.POINTER | Capability.KEYBOARD | Capability.WINDOW)
            .policy(AgentAbi.POLICY_STOP_ON_FAILURE).deadlineNs(System.nanoTime() + TimeUnit.SECONDS.toNanos(20))
            .actionCount(1).actionStride(ActionFlyweight.LENGTH).actionsOffset(ActionBatchFlyweight.LENGTH)
            .payloadOffset(payloadAt).payloadSize(payload.length).totalSize(total);
        if (generation != 0) {
            b.preconditions().flags(PreconditionFlag.GENERATION).generation(generation);
        }
        final ActionFlyweight a = new ActionFlyweight().wrap(req, at + ActionBatchFlyweight.LENGTH);
        action.accept(a);
        a.payloadSize(payload.length);
        req.write(at + payloadAt, payload, 0, payload.length);
        client.send(total);
        final AgentClient.Reply reply = client.receive(AgentAbi.ACTION_COMPLETION);
        final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[reply.length()]);
        copy.write(0, reply.bytes(), reply.offset(), reply.length());
        return new ActionCompletionFlyweight().wrap(copy, 0);
    }
}
