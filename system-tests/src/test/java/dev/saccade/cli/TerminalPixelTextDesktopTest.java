package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A terminal driven and read as an agent would: xterm publishes no accessible object, so its
 * active window takes the typed command (TEXT, then KEY Return: D52) and the pixel source reads
 * what the shell printed. The marker line the shell echoes is found as a PIXEL text target of
 * the terminal's window; xterm's default bitmap font reads only through the second look at
 * small text.
 */
@WithTestDesktop(apps = {})
@ExtendWith(DesktopOwnerExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TerminalPixelTextDesktopTest {
    private static final String TITLE = "Saccade terminal";
    private static final int RETURN_USAGE = 0x28;
    private static final Duration APPEAR = Duration.ofSeconds(40);
    private static final Duration POLL = Duration.ofMillis(100);

    private TestDesktop desktop;
    private AgentClient client;
    private Process terminal;

    @BeforeAll
    void take(final TestDesktop testDesktop, final AgentClient agent) {
        desktop = testDesktop;
        client = agent;
    }

    @AfterAll
    void stop() {
        if (terminal != null) {
            terminal.destroyForcibly();
        }
    }

    @Test
    void whatTheShellPrintsIsReadFromTheTerminalsPixels() throws Exception {
        final Path dir = Files.createTempDirectory(desktop.directory(), "terminal");
        terminal = desktop.configure(new ProcessBuilder("xterm", "-title", TITLE, "-geometry", "80x12+0+0", "-e", "sh"))
            .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("xterm.log").toFile()).start();
        final long window = desktop.awaitWindow(terminal.pid(), TITLE, APPEAR.toMillis());

        // the window target takes text once it is the active window: activate it if it is not
        final long windowTarget = TargetIds.window(window);
        Await.probe(() -> {
            final int caps = capabilities(windowTarget);
            if ((caps & TargetCapability.TEXT) == 0) {
                InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.WINDOW_ACTIVATE).targetId(windowTarget), 0);
            }
            return caps;
        }, caps -> (caps & (TargetCapability.TEXT | TargetCapability.KEYBOARD))
            == (TargetCapability.TEXT | TargetCapability.KEYBOARD), APPEAR, POLL,
            caps -> "the terminal's window target to take TEXT and KEYBOARD; capabilities " + caps);

        final String marker = "saccade-" + ThreadLocalRandom.current().nextInt(1000, 10_000) + "-ish marker";
        ok(InputHelperDesktopTest.send(client, ("echo " + marker).getBytes(StandardCharsets.UTF_8),
            a -> a.kind(ActionKind.TEXT).targetId(windowTarget).buttonBits(Button.LEFT), 0), "TEXT the command");
        ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.KEY).keyUsage(RETURN_USAGE), 0), "KEY Return (to the focus: KEY names no target)");

        // the shell's output line, on its own: the command line reads "$ echo ..." or "# echo ..."
        final String[] seen = {""};
        final TargetFlyweight line = Await.probe(() -> {
            final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, 0, marker, TextMatch.EXACT);
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = target(c, i);
                if (t.windowId() == window && t.sourceBits() == SourceBit.PIXEL) {
                    return t;
                }
            }
            seen[0] = texts(window);
            return null;
        }, t -> t != null, APPEAR, POLL, none -> "a PIXEL text target \"" + marker + "\" in the terminal; its texts " + seen[0]);
        assertEquals(TargetIds.window(window), line.parentId());
        assertTrue((line.flags() & TargetFlag.ACTIONABLE) != 0);
    }

    private static void ok(final ActionCompletionFlyweight c, final String what) {
        assertEquals(ResultCode.OK, c.result(), what + ": " + ResultCode.name(c.result()));
    }

    private int capabilities(final long targetId) throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, 0, null, TextMatch.EXACT);
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = target(c, i);
            if (t.targetId() == targetId) {
                return t.capabilityBits();
            }
        }
        return 0;
    }

    /** The texts of the window's PIXEL targets, for a failure's message. */
    private String texts(final long window) throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, 0, null, TextMatch.EXACT);
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = target(c, i);
            if (t.windowId() == window && t.sourceBits() == SourceBit.PIXEL) {
                final byte[] b = new byte[(int) t.textSize()];
                c.bytes().read(c.offset() + t.textOffset(), b, 0, b.length);
                out.append('"').append(new String(b, StandardCharsets.UTF_8)).append("\" ");
            }
        }
        return out.toString();
    }

    private static TargetFlyweight target(final CompletionFlyweight c, final int i) {
        return new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset() + (long) i * c.targetStride());
    }
}
