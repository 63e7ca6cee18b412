package dev.saccade.testdesktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.ProcessStopper;
import dev.saccade.demodesktop.TestDesktop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs small test classes through the JUnit Platform launcher and checks what the extension did
 * around them. The inner classes are not run by surefire on their own (it skips nested classes).
 */
@Tag("desktop")
@Timeout(120)
class TestDesktopExtensionTest {
    /** Filled by the inner classes while the launcher runs them; read afterwards. */
    static final List<TestDesktop> SEEN = new ArrayList<>();
    static volatile Path seenDirectory;
    static volatile long seenAppPid;

    @Test
    @Timeout(60)
    void injectsOneDesktopIntoBeforeAllConstructorAndEveryTest() {
        SEEN.clear();
        final TestExecutionSummary summary = run(SharingDesktop.class);

        assertEquals(2, summary.getTestsSucceededCount(), failures(summary));
        assertEquals(5, SEEN.size());  // @BeforeAll, then constructor and test, twice
        for (final TestDesktop desktop : SEEN) {
            assertSame(SEEN.get(0), desktop);
        }
        assertTrue(SEEN.get(0).isClosed(), "stopped after the class");
    }

    @Test
    @Timeout(60)
    void stopsTheDesktopAfterTheClassWhenATestFails() {
        SEEN.clear();
        final TestExecutionSummary summary = run(FailingTest.class);

        assertEquals(1, summary.getTestsFailedCount(), failures(summary));
        assertStoppedCompletely();
    }

    @Test
    @Timeout(60)
    void stopsTheDesktopAfterTheClassWhenATestTimesOut() {
        SEEN.clear();
        final TestExecutionSummary summary = run(TimingOutTest.class);

        assertEquals(1, summary.getTestsFailedCount(), failures(summary));
        assertTrue(summary.getFailures().get(0).getException() instanceof java.util.concurrent.TimeoutException,
            failures(summary));
        assertStoppedCompletely();
    }

    private static void assertStoppedCompletely() {
        assertEquals(1, SEEN.size());
        assertTrue(SEEN.get(0).isClosed());
        assertNotNull(seenDirectory);
        assertFalse(Files.exists(seenDirectory), seenDirectory + " left behind");
        assertTrue(ProcessHandle.of(seenAppPid).map(p -> ProcessStopper.isGone(p)).orElse(true), "app left running");
    }

    private static TestExecutionSummary run(final Class<?> testClass) {
        final LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
            .selectors(selectClass(testClass)).build();
        final Launcher launcher = LauncherFactory.create();
        final SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        return listener.getSummary();
    }

    private static String failures(final TestExecutionSummary summary) {
        final StringBuilder out = new StringBuilder();
        for (final TestExecutionSummary.Failure failure : summary.getFailures()) {
            out.append(failure.getTestIdentifier().getDisplayName()).append(": ")
                .append(failure.getException()).append('\n');
        }
        return out.toString();
    }

    @WithTestDesktop
    static class SharingDesktop {
        SharingDesktop(final TestDesktop desktop) {
            SEEN.add(desktop);
        }

        @BeforeAll
        static void recordDesktop(final TestDesktop desktop) {
            SEEN.add(desktop);
        }

        @Test
        void first(final TestDesktop desktop) {
            SEEN.add(desktop);
        }

        @Test
        void second(final TestDesktop desktop) {
            SEEN.add(desktop);
        }
    }

    @WithTestDesktop(apps = DemoApp.ZENITY_ENTRY)
    static class FailingTest {
        @Test
        void fails(final TestDesktop desktop) {
            record(desktop);
            throw new AssertionError("deliberate failure");
        }
    }

    @WithTestDesktop(apps = DemoApp.ZENITY_ENTRY)
    static class TimingOutTest {
        @Test
        @Timeout(1)
        void blocksPastItsTimeout(final TestDesktop desktop) throws InterruptedException {
            record(desktop);
            new CountDownLatch(1).await();  // only the timeout's interrupt ends this
        }
    }

    private static void record(final TestDesktop desktop) {
        SEEN.add(desktop);
        seenDirectory = desktop.directory();
        seenAppPid = desktop.apps().get(0).pid();
    }
}
