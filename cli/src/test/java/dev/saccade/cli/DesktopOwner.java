package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.owner.OwnerContext;
import dev.saccade.owner.OwnerService;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.TestDesktop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The held-input tests' fixture: a real owner service (windows and grid, no AT-SPI) with its real
 * input helper attached, on the test desktop, in a temporary 0700 runtime directory, and a probe
 * of the X server's pointer buttons, which start released. {@link #close()} stops the service
 * (its helper releases what it holds) and removes the directory.
 */
final class DesktopOwner implements AutoCloseable {
    final Path runtime;
    final OwnerService service;
    final XPointerProbe probe;

    private DesktopOwner(final Path runtime, final OwnerService service, final XPointerProbe probe) {
        this.runtime = runtime;
        this.service = service;
        this.probe = probe;
    }

    static DesktopOwner start(final TestDesktop desktop, final String name) throws Exception {
        final Path runtime = Files.createTempDirectory(name,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final OwnerService service = OwnerService.start(new OwnerContext().runtimeDirectory(runtime)
            .display(desktop.display()).accessibility(false).conclude());
        assertTrue(service.inputHelper().awaitAttached(Duration.ofSeconds(30)), "the helper attached");
        final XPointerProbe probe = new XPointerProbe(desktop.display());
        assertFalse(probe.leftHeld());
        return new DesktopOwner(runtime, service, probe);
    }

    /** A connection that said hello with the policy capabilities. */
    AgentClient connect() throws Exception {
        final AgentClient client = AgentClient.connect(service.endpoint(), Duration.ofSeconds(10));
        client.readTimeout(Duration.ofSeconds(20));
        client.hello(1, Capability.POLICY);
        return client;
    }

    /**
     * HOLD the left button on a grid cell, leased to {@code client}; retries while the owner still
     * reports the executor lost (a replacement helper is being adopted).
     */
    void hold(final AgentClient client) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            final long cell = HeldInputReleaseDesktopTest.gridCell(client);
            final ActionCompletionFlyweight held = HeldInputReleaseDesktopTest.batch(client,
                a -> a.kind(ActionKind.HOLD).targetId(cell).buttonBits(Button.LEFT));
            if (held.result() == ResultCode.EXECUTOR_LOST && System.nanoTime() < deadline) {
                LockSupport.parkNanos(10_000_000); // the owner thread adopts the new link on its next tick
                continue;
            }
            assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()));
            assertEquals(Button.LEFT, held.physicalState().buttons());
            assertTrue(held.physicalState().activeLeaseId() != 0, "the hold is leased to this connection");
            return;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            probe.close();
            service.close();
        } finally {
            try (var files = Files.walk(runtime)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
