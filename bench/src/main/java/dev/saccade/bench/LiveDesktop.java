package dev.saccade.bench;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.owner.OwnerContext;
import dev.saccade.owner.OwnerService;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A real test desktop (Xvfb, openbox, optionally demo apps and the accessibility bus), the real
 * owner service with its input-helper process, and one connected agent: what {@link ClickBench}
 * and {@link TypingBench} drive. Request building reuses the client's request store and one set
 * of flyweights; replies are read in place (valid until the next receive).
 */
final class LiveDesktop implements AutoCloseable {
    final TestDesktop desktop;
    final Path runtime;
    final OwnerService service;
    final AgentClient client;

    private final ActionBatchFlyweight batch = new ActionBatchFlyweight();
    private final ActionFlyweight action = new ActionFlyweight();
    private final ActionCompletionFlyweight actionCompletion = new ActionCompletionFlyweight();
    private final QueryRequestFlyweight query = new QueryRequestFlyweight();
    private final QueryFilterFlyweight filter = new QueryFilterFlyweight();
    private final CompletionFlyweight completion = new CompletionFlyweight();
    private final TargetFlyweight target = new TargetFlyweight();
    private long requestId = 100;

    private LiveDesktop(final TestDesktop desktop, final Path runtime, final OwnerService service,
        final AgentClient client) {
        this.desktop = desktop;
        this.runtime = runtime;
        this.service = service;
        this.client = client;
    }

    /** Starts everything; on any failure closes what already started. */
    static LiveDesktop start(final boolean accessibility, final DemoApp... apps) throws Exception {
        final long t0 = System.nanoTime();
        final TestDesktop desktop = TestDesktop.start(apps);
        Path runtime = null;
        OwnerService service = null;
        AgentClient client = null;
        try {
            runtime = Files.createTempDirectory("saccade-bench-desktop-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            final OwnerContext context = new OwnerContext().runtimeDirectory(runtime).display(desktop.display());
            if (accessibility) {
                context.sessionBusAddress(desktop.sessionBusAddress());
            } else {
                context.accessibility(false);
            }
            service = OwnerService.start(context.conclude());
            if (!service.inputHelper().awaitAttached(Duration.ofSeconds(30))) {
                throw new IllegalStateException("the input helper did not attach");
            }
            client = AgentClient.connect(service.endpoint(), Duration.ofSeconds(10));
            client.readTimeout(Duration.ofSeconds(30));
            client.hello(1, Capability.POLICY);
            System.out.printf("desktop %s, owner and input helper (pid %d) up in %.1f s%n", desktop.display(),
                service.inputHelper().process().pid(), (System.nanoTime() - t0) / 1e9);
            return new LiveDesktop(desktop, runtime, service, client);
        } catch (final Exception | Error e) {
            closeAll(client, service, runtime, desktop);
            throw e;
        }
    }

    /** A live one-action batch (no preconditions); returns the completion's result code. */
    int act(final byte[] payload, final Consumer<ActionFlyweight> configure) throws IOException {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int payloadAt = ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH;
        final int total = payloadAt + payload.length;
        req.zeroOut(at, at + total);
        batch.wrap(req, at);
        batch.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, 0);
        batch.requestId(++requestId)
            .requestedCapabilityBits(Capability.POINTER | Capability.KEYBOARD | Capability.WINDOW)
            .policy(AgentAbi.POLICY_STOP_ON_FAILURE).deadlineNs(System.nanoTime() + TimeUnit.SECONDS.toNanos(30))
            .actionCount(1).actionStride(ActionFlyweight.LENGTH).actionsOffset(ActionBatchFlyweight.LENGTH)
            .payloadOffset(payloadAt).payloadSize(payload.length).totalSize(total);
        action.wrap(req, at + ActionBatchFlyweight.LENGTH);
        configure.accept(action);
        action.payloadSize(payload.length);
        if (payload.length > 0) {
            req.write(at + payloadAt, payload, 0, payload.length);
        }
        client.send(total);
        final AgentClient.Reply reply = client.receive(AgentAbi.ACTION_COMPLETION);
        return actionCompletion.wrap(reply.bytes(), reply.offset()).result();
    }

    /** Like {@link #act} but fails unless the result is OK. */
    void ok(final String what, final byte[] payload, final Consumer<ActionFlyweight> configure) throws IOException {
        final int result = act(payload, configure);
        if (result != ResultCode.OK) {
            throw new IllegalStateException(what + ": " + ResultCode.name(result));
        }
    }

    /**
     * A DESKTOP observe of the latest scene in {@code sourceMode}, up to {@code maximumTargets};
     * returns the completion, valid until the next request.
     */
    CompletionFlyweight observe(final int sourceMode, final long maximumTargets) throws IOException {
        return observe(client, ++requestId, sourceMode, maximumTargets, completion);
    }

    /** A DESKTOP observe of the latest scene by {@code client}, read into {@code into} (valid until its next request). */
    static CompletionFlyweight observe(final AgentClient client, final long requestId, final int sourceMode,
        final long maximumTargets, final CompletionFlyweight into) throws IOException {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        req.zeroOut(at, at + ObserveRequestFlyweight.LENGTH);
        final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(req, at);
        o.header().set(ObserveRequestFlyweight.LENGTH, AgentAbi.OBSERVE_REQUEST, 0);
        o.requestId(requestId).requestedCapabilityBits(Capability.OBSERVE).maximumTargets(maximumTargets)
            .targetStride(TargetFlyweight.LENGTH).totalCapacity(AgentAbi.MAX_MESSAGE_BYTES);
        o.scope().kind(ScopeKind.DESKTOP).sourceMode(sourceMode);
        o.freshness().policy(FreshnessPolicy.LATEST_VALID);
        client.send(ObserveRequestFlyweight.LENGTH);
        final AgentClient.Reply reply = client.receive(AgentAbi.OBSERVE_COMPLETION);
        return into.wrap(reply.bytes(), reply.offset());
    }

    /** The id of the {@code index}th cell of a GRID observe of the (empty) desktop (70: near its middle). */
    long gridCell(final int index) throws IOException {
        final CompletionFlyweight c = observe(SourceMode.GRID, 200);
        if (c.result() != ResultCode.OK || c.targetCount() <= index) {
            throw new IllegalStateException("GRID observe: " + ResultCode.name(c.result()) + ", " + c.targetCount()
                + " cells");
        }
        return target.wrap(c.bytes(), c.offset() + c.targetsOffset() + (long) index * c.targetStride()).targetId();
    }

    /**
     * One SEMANTIC query of {@code role} targets (with {@code text} matched by {@code match} when
     * not null); {@code afterGeneration} 0 reads the latest scene, otherwise the read waits up to
     * {@code timeoutNs} for a newer one (AFTER_GENERATION). Returns the completion, valid until
     * the next request.
     */
    CompletionFlyweight query(final int role, final byte[] text, final int match, final long afterGeneration,
        final long timeoutNs) throws IOException {
        final int textLength = text == null ? 0 : text.length;
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int textAt = QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH;
        final int total = textAt + textLength;
        req.zeroOut(at, at + total);
        query.wrap(req, at);
        query.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
        query.requestId(++requestId).requestedCapabilityBits(Capability.OBSERVE).maximumResults(100).filterCount(1)
            .filterStride(QueryFilterFlyweight.LENGTH).filtersOffset(QueryRequestFlyweight.LENGTH).totalSize(total);
        query.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.SEMANTIC);
        if (afterGeneration == 0) {
            query.freshness().policy(FreshnessPolicy.LATEST_VALID);
        } else {
            query.freshness().policy(FreshnessPolicy.AFTER_GENERATION).afterGeneration(afterGeneration)
                .timeoutNs(timeoutNs);
        }
        filter.wrap(req, at + QueryRequestFlyweight.LENGTH);
        int flags = role < 0 ? 0 : FilterFlag.ROLE; // a negative role: any role
        if (textLength > 0) {
            flags |= FilterFlag.TEXT;
            filter.textMatch(match).textOffset(textAt).textSize(textLength);
            req.write(at + textAt, text, 0, textLength);
        }
        filter.flags(flags).role(Math.max(role, 0));
        client.send(total);
        final AgentClient.Reply reply = client.receive(AgentAbi.QUERY_COMPLETION);
        return completion.wrap(reply.bytes(), reply.offset());
    }

    /**
     * The first actionable target of completion {@code c} in {@code window} (its flyweight, valid
     * until the next request), or null.
     */
    TargetFlyweight inWindow(final CompletionFlyweight c, final long window) {
        if (c.result() != ResultCode.OK) {
            return null;
        }
        for (int i = 0; i < c.targetCount(); i++) {
            target.wrap(c.bytes(), c.offset() + c.targetsOffset() + (long) i * c.targetStride());
            if (target.windowId() == window && (target.flags() & TargetFlag.ACTIONABLE) != 0) {
                return target;
            }
        }
        return null;
    }

    /** The text of {@code window}'s first actionable {@code role} target in the latest scene, or null (diagnostics). */
    String textOf(final int role, final long window) throws IOException {
        final CompletionFlyweight c = query(role, null, 0, 0, 0);
        final TargetFlyweight t = inWindow(c, window);
        if (t == null) {
            return null;
        }
        final byte[] text = new byte[(int) t.textSize()];
        c.bytes().read(c.offset() + t.textOffset(), text, 0, text.length);
        return new String(text, StandardCharsets.UTF_8);
    }

    static byte[] utf8(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        closeAll(client, service, runtime, desktop);
    }

    private static void closeAll(final AgentClient client, final OwnerService service, final Path runtime,
        final TestDesktop desktop) {
        try {
            if (client != null) {
                client.close();
            }
        } catch (final Exception e) {
            System.err.println("closing the agent client: " + e);
        }
        try {
            if (service != null) {
                service.close();
            }
        } catch (final Exception e) {
            System.err.println("closing the owner service: " + e);
        }
        try {
            if (runtime != null) {
                try (Stream<Path> paths = Files.walk(runtime)) {
                    paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        } catch (final Exception e) {
            System.err.println("deleting " + runtime + ": " + e);
        }
        desktop.close();
    }
}
