package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.owner.OwnerContext;
import dev.saccade.owner.OwnerService;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A slider is a DRAG_SOURCE because the toolkit lets its thumb be dragged (§5.13
 * "Capabilities"): DRAG_DROP from zenity's scale to the grid cell under its far end, through the
 * whole pipeline, and zenity prints the value the drag left.
 */
@WithTestDesktop
class SliderDragDesktopTest {
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void draggingTheScalesSliderChangesTheValueZenityPrints(final TestDesktop desktop) throws Exception {
        final Path runtime = Files.createTempDirectory("saccade-slider",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final File out = new File(desktop.logDir().toFile(), "zenity-scale-drag.out");
        final Process zenity = desktop.configure(new ProcessBuilder("zenity", "--scale", "--title=Saccade drag",
            "--value=10", "--min-value=0", "--max-value=100")).redirectOutput(out)
            .redirectError(new File(desktop.logDir().toFile(), "zenity-scale-drag.err")).start();
        try (OwnerService service = OwnerService.start(new OwnerContext().runtimeDirectory(runtime)
                .display(desktop.display()).sessionBusAddress(desktop.sessionBusAddress()).conclude())) {
            assertTrue(service.inputHelper().awaitAttached(Duration.ofSeconds(30)));
            try (AgentClient client = AgentClient.connect(service.endpoint(), Duration.ofSeconds(10))) {
                client.readTimeout(Duration.ofSeconds(20));
                client.hello(1, Capability.POLICY, HelloFlag.EXTENDED_ROLES);
                final int[] slider = slider(client, zenity.pid());
                final int y = slider[1] + slider[3] / 2;
                final int toX = slider[0] + slider[2] * 9 / 10;
                final long drop = ScrollEffectDesktopTest.cellAt(client, toX * RectQ8.ONE + RectQ8.ONE / 2,
                    y * RectQ8.ONE + RectQ8.ONE / 2);
                final ActionCompletionFlyweight drag = InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.DRAG_DROP).flags(ActionFlag.EXPLICIT_POINTS).targetId(targetId)
                        .secondaryTargetId(drop).buttonBits(Button.LEFT)
                        .point((slider[0] + slider[2] / 2) * RectQ8.ONE + RectQ8.ONE / 2, y * RectQ8.ONE + RectQ8.ONE / 2)
                        .secondaryPoint(toX * RectQ8.ONE + RectQ8.ONE / 2, y * RectQ8.ONE + RectQ8.ONE / 2), 0);
                assertEquals(ResultCode.OK, drag.result(), ResultCode.name(drag.result()));
                // Enter activates the dialog's default button, OK: zenity prints the value and exits.
                final ActionCompletionFlyweight enter = InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.KEY).keyUsage(0x28), 0);
                assertEquals(ResultCode.OK, enter.result(), ResultCode.name(enter.result()));
                assertTrue(zenity.waitFor(20, TimeUnit.SECONDS), "zenity closed on Enter");
                final int value = Integer.parseInt(Files.readString(out.toPath(), StandardCharsets.UTF_8).trim());
                assertTrue(value >= 75, "the drag moved the value from 10 to near the far end: " + value);
            }
        } finally {
            zenity.destroyForcibly();
            try (var files = Files.walk(runtime)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private long targetId;

    /** The slider {@link #slider} found. */
    long targetId() {
        return targetId;
    }

    /** The bounds (x, y, width, height in pixels) of zenity's actionable SLIDER, which must be a DRAG_SOURCE. */
    int[] slider(final AgentClient client, final long pid) throws Exception {
        final long[] after = {0};
        return Await.probe(() -> {
            final BytesStore<?, ?> req = client.requestStore();
            final long at = client.requestOffset();
            req.zeroOut(at, at + ObserveRequestFlyweight.LENGTH);
            final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(req, at);
            o.header().set(ObserveRequestFlyweight.LENGTH, AgentAbi.OBSERVE_REQUEST, 0);
            o.requestId(8).requestedCapabilityBits(Capability.OBSERVE).maximumTargets(10_000).targetStride(88)
                .totalCapacity(AgentAbi.MAX_MESSAGE_BYTES);
            o.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.SEMANTIC);
            o.freshness().policy(after[0] == 0 ? FreshnessPolicy.LATEST_VALID : FreshnessPolicy.AFTER_GENERATION)
                .afterGeneration(after[0]).timeoutNs(TimeUnit.MILLISECONDS.toNanos(500));
            client.send(ObserveRequestFlyweight.LENGTH);
            final var reply = client.receive(AgentAbi.OBSERVE_COMPLETION);
            final CompletionFlyweight c = new CompletionFlyweight().wrap(reply.bytes(), reply.offset());
            if (c.result() == ResultCode.OK) {
                after[0] = c.generation().generation();
                for (int k = 0; k < c.targetCount(); k++) {
                    final TargetFlyweight t = new TargetFlyweight().wrap(reply.bytes(),
                        reply.offset() + c.targetsOffset() + (long) k * c.targetStride());
                    if (t.role() == Role.SLIDER && (t.flags() & TargetFlag.ACTIONABLE) != 0 && t.windowId() != 0) {
                        assertTrue((t.capabilityBits() & TargetCapability.DRAG_SOURCE) != 0, "a slider is a drag source");
                        targetId = t.targetId();
                        return new int[] {t.boundsXQ8() / RectQ8.ONE, t.boundsYQ8() / RectQ8.ONE,
                            t.boundsWidthQ8() / RectQ8.ONE, t.boundsHeightQ8() / RectQ8.ONE};
                    }
                }
            }
            return null;
        }, Objects::nonNull, Duration.ofSeconds(30),
            none -> "an actionable slider of zenity (pid " + pid + "); last generation " + after[0]);
    }
}
