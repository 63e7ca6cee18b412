package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.atspi.AtspiConfiguration;
import dev.saccade.atspi.AtspiSourceContext;
import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The accessibility source's edges through the real endpoint: a password field is SECURE and its text never
 * published; a tree over the node budget, or an application that stops answering, makes the
 * scene SOURCE_INCOMPLETE while the owner goes on answering.
 */
@WithTestDesktop(apps = DemoApp.GTK3_DEMO)
@WithDesktopService(properties = AtspiConfiguration.MAX_NODES_PER_APP_PROP_NAME + "=" + AccessibilityEdgesDesktopTest.NODE_BUDGET)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AccessibilityEdgesDesktopTest {
    /** gtk3-demo has about 190 accessible objects. */
    static final int NODE_BUDGET = 50;

    private TestDesktop desktop;
    private DesktopService d;

    @BeforeAll
    void startService(final TestDesktop testDesktop, final DesktopService service) {
        desktop = testDesktop;
        d = service;
    }

    @Test
    void aPasswordFieldIsASecureTargetWhoseTextIsNeverPublished() throws Exception {
        final Process password = desktop.configure(new ProcessBuilder("zenity", "--password", "--title=Secret"))
            .redirectErrorStream(true).redirectOutput(d.runtime.resolve("zenity.log").toFile()).start();
        try {
            final CompletionFlyweight c = d.awaitObserve(o -> { },
                s -> DesktopService.count(s, t -> (t.flags() & TargetFlag.SECURE) != 0) >= 1);
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = ObserveQueryConformance.target(c, i);
                if ((t.flags() & TargetFlag.SECURE) != 0) {
                    assertTrue((t.flags() & TargetFlag.TEXT_REDACTED) != 0, "SECURE targets are TEXT_REDACTED");
                    assertEquals(0, t.textSize(), "a password field's text is never in the lane");
                }
            }
        } finally {
            password.destroy();
            assertTrue(password.waitFor(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aTreeOverTheNodeBudgetOrAStoppedApplicationMakesTheSceneIncompleteWhileTheOwnerAnswers() throws Exception {
        // over the budget: gtk3-demo's ~190 objects are cut at 50
        final CompletionFlyweight cut = d.awaitObserve(o -> { },
            s -> (s.header().flags() & AgentAbi.FLAG_SOURCE_INCOMPLETE) != 0 && DesktopService.count(s, t -> t.targetId() >>> 56 == 3) > 0);
        assertTrue(DesktopService.count(cut, t -> t.targetId() >>> 56 == 3) <= NODE_BUDGET, "at most the budget");

        // a stopped application: its D-Bus calls time out; the owner answers meanwhile
        final AppHandle gtk = desktop.apps().get(0);
        signal("STOP", gtk.pid());
        try {
            final CompletableFuture<AccessibilitySnapshot> refresh = d.service.accessibility().requestRefresh();
            long answered = 0;
            long worstNs = 0;
            while (!refresh.isDone()) {
                final long start = System.nanoTime();
                final CompletionFlyweight c = ObserveQueryConformance.completion(d.client.exchange(Requests.observe(4, o -> { })));
                worstNs = Math.max(worstNs, System.nanoTime() - start);
                assertEquals(ResultCode.OK, c.result());
                answered++;
            }
            assertTrue(refresh.get(10, TimeUnit.SECONDS).incomplete(), "the stopped application bounds the refresh");
            assertTrue(answered > 0, "observes answered during the refresh");
            assertTrue(worstNs < TimeUnit.MILLISECONDS.toNanos(200),
                "the owner kept answering: slowest observe " + worstNs / 1_000_000 + " ms while the refresh waited");
        } finally {
            signal("CONT", gtk.pid());
        }
    }

    private static void signal(final String name, final long pid) throws Exception {
        final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
        assertTrue(kill.waitFor(5, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name);
    }


}
