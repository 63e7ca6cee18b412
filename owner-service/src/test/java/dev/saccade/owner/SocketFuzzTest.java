package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.FuzzCases;
import dev.saccade.protocol.HeaderFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The foundation's fuzz cases sent to a running service over its real socket, authenticated and
 * not: every reply is a self-consistent completion within the response buffer or a closed
 * connection; the service never dies, never fails internally, and a bystander client keeps
 * being served throughout.
 */
class SocketFuzzTest {
    /** Random cases over the socket: each may cost a reconnect, so fewer than in-process. */
    private static final int RANDOM_CASES = Integer.getInteger("saccade.fuzz.cases", 20_000);
    /** The random cases' seed (bench/run fuzz passes its own); printed with any failure. */
    private static final long SEED = Long.getLong("saccade.fuzz.seed", FuzzCases.SEED);
    /** A read parked on a generation that never comes gets no reply: give it this long. */
    private static final int PARKED_READ_WAIT_MS = 500;
    private static final int HELLO_WAIT_MS = 10_000;

    @TempDir
    Path dir;

    private Path socket;
    private SocketWire client;
    private boolean authenticated;
    private long closed;
    private long answered;
    private long parked;
    private final CompletionValidator completions = new CompletionValidator();

    @Test
    @Timeout(300)
    void fuzzCasesNeverKillTheServiceAndOtherClientsKeepBeingServed() throws Exception {
        socket = dir.resolve("agent.sock");
        try (SceneStore store = FixtureF.store(); OwnerHarness owner = startWithScene(store)) {
            final AtomicLong bystanderReads = new AtomicLong();
            final AtomicReference<Throwable> bystanderFailure = new AtomicReference<>();
            final Thread bystander = new Thread(() -> {
                try (Wire w = new SocketWire(socket)) {
                    assertEquals(ResultCode.OK, ObserveQueryConformance.helloResult(
                        w.exchange(Requests.hello(1, Capability.OBSERVE))));
                    while (!Thread.currentThread().isInterrupted()) {
                        final byte[] reply = w.exchange(Requests.observe(2, o -> { }));
                        assertEquals(ResultCode.OK, ObserveQueryConformance.completion(reply).result());
                        bystanderReads.incrementAndGet();
                    }
                } catch (final Throwable t) {
                    if (!Thread.currentThread().isInterrupted()) {
                        bystanderFailure.set(t);
                    }
                }
            }, "bystander");
            bystander.start();

            // Unauthenticated: every case is a Hello attempt.
            FuzzCases.deterministic(FuzzCases.seeds(), (frame, label) -> send(frame, label, false));
            // Authenticated: the request seeds' truncations and flips, then random cases.
            final List<byte[]> seeds = FuzzCases.seeds();
            FuzzCases.deterministic(FuzzCases.requestSeeds(), (frame, label) -> send(frame, label, true));
            try {
                FuzzCases.random(seeds, RANDOM_CASES, SEED, (frame, label) -> send(frame, label, true));
            } catch (final AssertionError e) {
                throw new AssertionError(e.getMessage() + " (replay: -Dsaccade.fuzz.seed=" + SEED + " -Dsaccade.fuzz.cases="
                    + RANDOM_CASES + ")", e);
            }

            final long readsBefore = bystanderReads.get();
            try {
                Await.until(() -> bystanderReads.get() >= readsBefore + 10 || bystanderFailure.get() != null,
                    Duration.ofSeconds(5), () -> "10 more bystander reads (starved?); seen "
                        + (bystanderReads.get() - readsBefore));
            } finally {
                bystander.interrupt();
            }
            bystander.join(5_000);
            assertNull(bystanderFailure.get(), () -> "bystander failed: " + bystanderFailure.get());
            assertTrue(bystanderReads.get() >= readsBefore + 10, "bystander starved");
            assertEquals(0, owner.agent.serviceFailures(), "no internal failure");
            assertNull(owner.runner.failure(), "owner loop alive");
            assertTrue(owner.runner.thread().isAlive(), "owner loop alive");
            assertTrue(answered > 1000 && closed > 1000, "answered " + answered + ", closed " + closed);
            System.out.printf("socket fuzz: seed %d, answered %d, closed %d, parked %d, bystander reads %d%n",
                SEED, answered, closed, parked, bystanderReads.get());
        } finally {
            if (client != null) {
                client.close();
            }
        }
    }

    private OwnerHarness startWithScene(final SceneStore store) throws Exception {
        FixtureF.publish(store);
        return OwnerHarness.start(socket, store, 8);
    }

    private void send(final byte[] frame, final String label, final boolean authenticate) {
        try {
            if (client == null || (authenticate && !authenticated)) {
                reconnect(authenticate);
            }
            final byte[] reply;
            try {
                reply = client.exchange(frame);
            } catch (final SocketTimeoutException e) {
                parked++; // a read waiting for a generation that will not come: legitimate
                dropClient();
                return;
            }
            if (reply == null) {
                closed++;
                dropClient();
                return;
            }
            answered++;
            assertTrue(reply.length <= AgentAbi.MAX_MESSAGE_BYTES, "reply larger than R");
            assertEquals(CompletionValidator.VALID, completions.validate(Bytes.wrapForRead(reply), 0, reply.length, 0),
                "reply is not a self-consistent completion");
            final int kind = Bytes.wrapForRead(reply).readInt(HeaderFlyweight.MESSAGE_KIND_OFFSET);
            if (!authenticated) {
                assertEquals(AgentAbi.HELLO_COMPLETION, kind, "unauthenticated frames get Hello completions");
                if (ObserveQueryConformance.helloResult(reply) == ResultCode.OK) {
                    authenticated = true; // a case that is a valid Hello: start over unauthenticated
                    if (!authenticate) {
                        dropClient();
                    }
                }
            }
        } catch (final AssertionError e) {
            throw new AssertionError(label + ": " + e.getMessage(), e);
        } catch (final Exception e) {
            fail(label + ": " + e, e);
        }
    }

    private void reconnect(final boolean authenticate) throws IOException {
        dropClient();
        client = new SocketWire(socket);
        if (authenticate) {
            // The Hello must be answered: it gets the patience of a loaded machine, not the
            // short wait that tells a parked read of a fuzz case from an answer.
            client.soTimeout(HELLO_WAIT_MS);
            assertEquals(ResultCode.OK, ObserveQueryConformance.helloResult(
                client.exchange(Requests.hello(3, Capability.POLICY))));
            authenticated = true;
        }
        client.soTimeout(PARKED_READ_WAIT_MS);
    }

    private void dropClient() throws IOException {
        if (client != null) {
            client.close();
            client = null;
        }
        authenticated = false;
    }
}
