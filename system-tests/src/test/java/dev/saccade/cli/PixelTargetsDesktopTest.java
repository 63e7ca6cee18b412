package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.owner.OwnerContext;
import dev.saccade.owner.OwnerService;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Pixel targets on a real desktop: Athena apps (xmessage, xcalc) have no accessibility tree, and their
 * labels become PIXEL targets (role, text, CLICK and POINTER_MOVE, stable ids); a CLICK on
 * xmessage's "Yes" through the real input helper reaches the app, which prints "Yes" itself.
 */
@WithTestDesktop(apps = {DemoApp.XCALC, DemoApp.XMESSAGE})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PixelTargetsDesktopTest {
    private TestDesktop desktop;
    private Path runtime;
    private OwnerService service;
    private AgentClient client;

    @BeforeAll
    void start(final TestDesktop testDesktop) throws Exception {
        desktop = testDesktop;
        runtime = Files.createTempDirectory("saccade-pixel",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        service = OwnerService.start(new OwnerContext().runtimeDirectory(runtime).display(desktop.display())
            .sessionBusAddress(desktop.sessionBusAddress()).conclude());
        assertNotNull(service.pixels(), "the pixel source runs (libtesseract5 and tesseract-ocr-eng installed)");
        assertTrue(service.inputHelper().awaitAttached(Duration.ofSeconds(30)));
        client = AgentClient.connect(service.endpoint(), Duration.ofSeconds(10));
        client.readTimeout(Duration.ofSeconds(30));
        client.hello(1, Capability.POLICY);
    }

    @AfterAll
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (service != null) {
            service.close();
        }
        try (var files = Files.walk(runtime)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void xcalcsKeysArePixelTargetsWithStableIds() throws Exception {
        final AppHandle calc = app(DemoApp.XCALC);
        final List<String> keys = List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "RCL");
        final List<Long> ids = new ArrayList<>();
        for (final String key : keys) {
            final TargetFlyweight t = await(calc.windowId(), key);
            assertEquals(SourceBit.PIXEL, t.sourceBits(), "pixel mode: PIXEL targets only");
            assertEquals(TargetIds.namespace(TargetIds.PIXEL_NAMESPACE), TargetIds.namespace(t.targetId()));
            assertEquals(TargetCapability.CLICK | TargetCapability.POINTER_MOVE, t.capabilityBits());
            assertEquals(TargetIds.window(calc.windowId()), t.parentId());
            assertTrue(t.confidenceQ16() > 0 && t.confidenceQ16() <= 0xFFFF);
            ids.add(t.targetId());
        }
        // a new generation (the desktop changes elsewhere) keeps every key's id
        final long before = query(0, null).generation().generation();
        final AppHandle other = desktop.startApp(DemoApp.XMESSAGE);
        try {
            for (int i = 0; i < keys.size(); i++) {
                final TargetFlyweight t = await(calc.windowId(), keys.get(i));
                assertEquals((long) ids.get(i), t.targetId(), keys.get(i) + " kept its id");
            }
            assertTrue(query(0, null).generation().generation() > before);
        } finally {
            desktop.closeApp(other);
        }
        // a click on its 7 changes xcalc's display: the damage makes the window read again, and
        // the display's new text is a second "7" of the window (the app's own output, read back)
        final long captures = service.pixels().captures();
        final ActionCompletionFlyweight click = InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.CLICK).targetId(ids.get(keys.indexOf("7"))).buttonBits(Button.LEFT), 0);
        assertEquals(ResultCode.OK, click.result(), ResultCode.name(click.result()));
        Await.probe(() -> {
            final int sevens = count(calc.windowId(), "7");
            if (sevens < 2) {
                awaitNewer(query(0, null).generation().generation());
            }
            return sevens;
        }, sevens -> sevens >= 2, Duration.ofSeconds(30),
            sevens -> "xcalc's display to read 7 after the click: two 7s; seen " + sevens);
        assertTrue(service.pixels().captures() > captures, "the window was captured again after the damage");
    }

    /** PIXEL targets of the window with exactly this text. */
    private int count(final long window, final String text) throws Exception {
        final CompletionFlyweight c = query(SourceMode.PIXEL, text);
        int n = 0;
        for (int i = 0; i < c.targetCount(); i++) {
            n += target(c, i).windowId() == window ? 1 : 0;
        }
        return n;
    }

    @Test
    void aClickOnXmessagesYesReachesTheApp() throws Exception {
        final AppHandle dialog = app(DemoApp.XMESSAGE);
        final TargetFlyweight yes = await(dialog.windowId(), "Yes");
        assertTrue((yes.flags() & TargetFlag.ACTIONABLE) != 0);
        assertTrue(yes.role() == Role.BUTTON || yes.role() == Role.TEXT, Role.name(yes.role()));
        await(dialog.windowId(), "No");
        final ActionCompletionFlyweight click = InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.CLICK).targetId(yes.targetId()).buttonBits(Button.LEFT), 0);
        assertEquals(ResultCode.OK, click.result(), ResultCode.name(click.result()));
        assertEquals(101, dialog.awaitExit(10_000), "xmessage exits 100 + the clicked button's number");
        assertEquals("Yes", Files.readString(dialog.stdoutFile()).strip(), "xmessage printed the clicked button");
    }

    private AppHandle app(final DemoApp which) {
        for (final AppHandle a : desktop.apps()) {
            if (a.app() == which) {
                return a;
            }
        }
        throw new AssertionError(which + " not running");
    }

    /** Queries (PIXEL mode, exact text) until an actionable target in {@code window} has {@code text}. */
    private TargetFlyweight await(final long window, final String text) throws Exception {
        final String[] seen = {""};
        return Await.probe(() -> {
            final CompletionFlyweight c = query(SourceMode.PIXEL, text);
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = target(c, i);
                if (t.windowId() == window && (t.flags() & TargetFlag.ACTIONABLE) != 0) {
                    final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[TargetFlyweight.LENGTH]);
                    copy.write(0, c.bytes(), t.offset(), TargetFlyweight.LENGTH);
                    return new TargetFlyweight().wrap(copy, 0);
                }
            }
            final CompletionFlyweight any = query(SourceMode.PIXEL, null);
            final StringBuilder texts = new StringBuilder();
            for (int i = 0; i < any.targetCount(); i++) {
                final TargetFlyweight t = target(any, i);
                if (t.windowId() == window) {
                    final byte[] b = new byte[(int) t.textSize()];
                    any.bytes().read(any.offset() + t.textOffset(), b, 0, b.length);
                    texts.append('"').append(new String(b, StandardCharsets.UTF_8)).append("\" ");
                }
            }
            seen[0] = texts.toString();
            awaitNewer(any.generation().generation());
            return null;
        }, Objects::nonNull, Duration.ofSeconds(30),
            none -> "PIXEL target \"" + text + "\" in window " + window + "; texts " + seen[0]);
    }

    private static TargetFlyweight target(final CompletionFlyweight c, final int i) {
        return new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset() + (long) i * c.targetStride());
    }

    /** Waits up to 300 ms for a generation after {@code generation} (a TIMEOUT answer is fine). */
    private void awaitNewer(final long generation) throws Exception {
        send(0, new byte[0], FreshnessPolicy.AFTER_GENERATION, generation);
    }

    /** A query of the latest scene; mode 0 = all sources. */
    private CompletionFlyweight query(final int mode, final String text) throws Exception {
        final CompletionFlyweight c = send(mode, text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8),
            FreshnessPolicy.LATEST_VALID, 0);
        assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
        return c;
    }

    private CompletionFlyweight send(final int mode, final byte[] utf8, final int policy, final long after)
        throws Exception {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int total = QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH + utf8.length;
        req.zeroOut(at, at + total);
        final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(req, at);
        q.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
        q.requestId(2).requestedCapabilityBits(Capability.OBSERVE).maximumResults(1000).filterCount(1)
            .filterStride(QueryFilterFlyweight.LENGTH).filtersOffset(QueryRequestFlyweight.LENGTH).totalSize(total);
        q.scope().kind(ScopeKind.DESKTOP).sourceMode(mode);
        q.freshness().policy(policy).afterGeneration(after).timeoutNs(TimeUnit.MILLISECONDS.toNanos(300));
        final QueryFilterFlyweight f = new QueryFilterFlyweight().wrap(req, at + QueryRequestFlyweight.LENGTH);
        if (utf8.length > 0) {
            f.textMatch(TextMatch.EXACT).textOffset(QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH)
                .textSize(utf8.length);
            req.write(at + QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH, utf8, 0, utf8.length);
        }
        f.flags(utf8.length > 0 ? FilterFlag.TEXT : 0);
        client.send(total);
        final var reply = client.receive(AgentAbi.QUERY_COMPLETION);
        final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[reply.length()]);
        copy.write(0, reply.bytes(), reply.offset(), reply.length());
        return new CompletionFlyweight().wrap(copy, 0);
    }
}
