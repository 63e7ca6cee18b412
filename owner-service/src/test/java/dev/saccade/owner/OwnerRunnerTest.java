package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

class OwnerRunnerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** Runs {@code step} with the call's number (from 1) as each tick; counts ticks and closes. */
    private static final class ScriptedAgent implements LoopAgent {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();
        private final IntFunction<Integer> step;

        ScriptedAgent(final IntFunction<Integer> step) {
            this.step = step;
        }

        @Override
        public int doWork(final long nowNs) {
            return step.apply(calls.incrementAndGet());
        }

        @Override
        public boolean quiescent() {
            return false;
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    private static OwnerIdleStrategy idle() {
        return new OwnerIdleStrategy(0, 0, 20_000, 20_000);
    }

    @Test
    void exceptionsAreCountedAndTheLoopGoesOn() throws InterruptedException {
        final ScriptedAgent agent = new ScriptedAgent(n -> {
            if (n <= 5) {
                throw new IllegalStateException("step " + n);
            }
            if (n <= 8) {
                throw new UnsupportedOperationException("step " + n);
            }
            return 0;
        });
        final OwnerRunner runner = new OwnerRunner(agent, idle()).start();
        try {
            Await.until(() -> agent.calls.get() > 20, TIMEOUT, "the loop keeps ticking after its errors");
            assertEquals(8, runner.errorCount());
            assertNull(runner.failure());
            assertTrue(runner.thread().isAlive());
            assertEquals(0, agent.closes.get());
        } finally {
            runner.close();
        }
        assertEquals(1, agent.closes.get(), "closed once, by the loop's thread");
        assertFalse(runner.thread().isAlive());
    }

    @Test
    void anErrorIsFatalAndClosesTheAgent() throws InterruptedException {
        final ScriptedAgent agent = new ScriptedAgent(n -> {
            if (n == 1) {
                throw new IllegalArgumentException("survived");
            }
            if (n == 3) {
                throw new StackOverflowError("fatal by kind");
            }
            return 1;
        });
        final OwnerRunner runner = new OwnerRunner(agent, idle()).start();
        try {
            Await.until(() -> !runner.thread().isAlive(), TIMEOUT, "the loop stops on an Error");
            assertInstanceOf(StackOverflowError.class, runner.failure());
            assertEquals(1, runner.errorCount());
            assertEquals(3, agent.calls.get());
            assertEquals(1, agent.closes.get());
        } finally {
            runner.close();
        }
    }
}
