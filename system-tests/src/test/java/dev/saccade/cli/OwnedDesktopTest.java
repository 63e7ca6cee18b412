package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fixture of the typing and drag desktop tests: one owner with AT-SPI and its helper on the
 * class's test desktop, and one connected client, for all of the class's tests
 * ({@link DesktopOwnerExtension}); the apps each test starts and closes itself.
 */
@Tag("desktop")
@ExtendWith(DesktopOwnerExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OwnedDesktopTest {
    protected TestDesktop desktop;
    protected DesktopOwner owner;
    protected AgentClient client;

    @BeforeAll
    void takeOwner(final TestDesktop testDesktop, final DesktopOwner desktopOwner, final AgentClient agentClient) {
        desktop = testDesktop;
        owner = desktopOwner;
        client = agentClient;
    }
}
