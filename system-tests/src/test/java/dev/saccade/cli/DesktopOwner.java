package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.owner.OwnerContext;
import dev.saccade.owner.OwnerService;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;

/**
 * The cli desktop tests' fixture: a real owner service with its real input helper attached, on
 * the test desktop, in a temporary 0700 runtime directory. {@link #start} is the held-input tests'
 * one (windows and grid, no AT-SPI) with a probe of the X server's pointer buttons, which start
 * released; {@link #withAccessibility} adds AT-SPI on the desktop's session bus, and
 * {@link #withoutAccessibility} is windows and grid alone, both without a probe. {@link #close()}
 * stops the service (its helper releases what it holds) and removes the directory.
 */
final class DesktopOwner implements AutoCloseable {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(20);

    final Path runtime;
    final OwnerService service;
    /** The pointer probe; null unless made by {@link #start}. */
    final XPointerProbe probe;

    private DesktopOwner(final Path runtime, final OwnerService service, final XPointerProbe probe) {
        this.runtime = runtime;
        this.service = service;
        this.probe = probe;
    }

    /** Windows and grid (no AT-SPI), and the pointer probe: no button is held at the start. */
    static DesktopOwner start(final TestDesktop desktop, final String name) throws Exception {
        final DesktopOwner owner = withoutAccessibility(desktop, name);
        try {
            final DesktopOwner probed = new DesktopOwner(owner.runtime, owner.service,
                new XPointerProbe(desktop.display()));
            assertFalse(probed.probe.leftHeld());
            return probed;
        } catch (final Throwable t) {
            owner.close();
            throw t;
        }
    }

    /** Windows, grid and AT-SPI on the desktop's session bus. */
    static DesktopOwner withAccessibility(final TestDesktop desktop, final String name) throws Exception {
        return start(desktop, name, new OwnerContext().sessionBusAddress(desktop.sessionBusAddress()));
    }

    /** Windows, grid and AT-SPI on another display ({@code wayland:<socket>}) and session bus. */
    static DesktopOwner onDisplay(final String display, final String sessionBus, final String name) throws Exception {
        return start(display, name, new OwnerContext().sessionBusAddress(sessionBus));
    }

    /** Windows and grid only. */
    static DesktopOwner withoutAccessibility(final TestDesktop desktop, final String name) throws Exception {
        return start(desktop, name, new OwnerContext().accessibility(false));
    }

    private static DesktopOwner start(final TestDesktop desktop, final String name, final OwnerContext context)
        throws Exception {
        return start(desktop.display(), name, context);
    }

    private static DesktopOwner start(final String display, final String name, final OwnerContext context)
        throws Exception {
        final Path runtime = Files.createTempDirectory(name,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            final OwnerService service = OwnerService.start(context.runtimeDirectory(runtime)
                .display(display).conclude());
            final DesktopOwner owner = new DesktopOwner(runtime, service, null);
            try {
                assertTrue(service.inputHelper().awaitAttached(Duration.ofSeconds(30)), "the helper attached");
            } catch (final Throwable t) {
                owner.close();
                throw t;
            }
            return owner;
        } catch (final Throwable t) {
            delete(runtime);
            throw t;
        }
    }

    /** A connection that said hello with the policy capabilities, reads waiting up to 20 s. */
    AgentClient connect() throws Exception {
        return connect(READ_TIMEOUT);
    }

    /** A connection that said hello with the policy capabilities, reads waiting up to {@code readTimeout}. */
    AgentClient connect(final Duration readTimeout) throws Exception {
        return connect(readTimeout, 0);
    }

    /** A client whose Hello asks for {@code helloFlags} (agent-abi §1.4), e.g. extended roles. */
    AgentClient connect(final Duration readTimeout, final int helloFlags) throws Exception {
        return connect(readTimeout, helloFlags, AgentAbi.API_VERSION);
    }

    /** A client of API 0x00010002 (agent-abi §5.14, §5.15): named windows, durations. */
    AgentClient connectMinor2() throws Exception {
        return connect(READ_TIMEOUT, 0, AgentAbi.API_VERSION_1_2);
    }

    /** A client of {@code apiVersion} whose Hello asks for {@code helloFlags}. */
    AgentClient connect(final Duration readTimeout, final int helloFlags, final int apiVersion) throws Exception {
        final AgentClient client = AgentClient.connect(service.endpoint(), Duration.ofSeconds(10));
        client.readTimeout(readTimeout);
        client.apiVersion(apiVersion);
        client.hello(1, Capability.POLICY, helloFlags);
        return client;
    }

    /**
     * HOLD the left button on a grid cell, leased to {@code client}; retries while the owner still
     * reports the executor lost (a replacement helper is being adopted).
     */
    void hold(final AgentClient client) throws Exception {
        final long cell = HeldInputReleaseDesktopTest.gridCell(client);
        final ActionCompletionFlyweight held = HeldInputReleaseDesktopTest.batchOnceAdopted(client,
            a -> a.kind(ActionKind.HOLD).targetId(cell).buttonBits(Button.LEFT), Capability.POINTER, Duration.ofSeconds(10));
        assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()));
        assertEquals(Button.LEFT, held.physicalState().buttons());
        assertTrue(held.physicalState().activeLeaseId() != 0, "the hold is leased to this connection");
    }

    @Override
    public void close() throws IOException {
        try {
            if (probe != null) {
                probe.close();
            }
            service.close();
        } finally {
            delete(runtime);
        }
    }

    private static void delete(final Path directory) throws IOException {
        if (Files.notExists(directory)) {
            return; // a failed start's close() deleted it: its failure, not this, is the news
        }
        try (var files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
