package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.testdesktop.TestDesktop;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The fixture of the typing and focus desktop tests: one owner with AT-SPI and its helper on the class's
 * test desktop, and one connected client, for all of the class's tests; the apps each test
 * starts and closes itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OwnedDesktopTest {
    protected TestDesktop desktop;
    protected DesktopOwner owner;
    protected AgentClient client;

    @BeforeAll
    void startOwner(final TestDesktop testDesktop) throws Exception {
        desktop = testDesktop;
        owner = DesktopOwner.withAccessibility(desktop, "saccade-" + getClass().getSimpleName());
        client = owner.connect(Duration.ofSeconds(30));
    }

    @AfterAll
    void stopOwner() throws Exception {
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            if (owner != null) {
                owner.close();
            }
        }
    }
}
