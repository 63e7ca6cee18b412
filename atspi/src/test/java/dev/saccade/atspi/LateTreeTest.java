package dev.saccade.atspi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A freshly registered application whose tree is only its frames is still building it (D50). */
class LateTreeTest {
    private static AccessibilityNode node(final long id, final long parent, final int role) {
        return new AccessibilityNode(id, parent, role, 0, 0, 0, 0, 0, 100, 100, "", "", 1, ":1.9", "/o/" + id);
    }

    @Test
    void onlyFramesSoonAfterRegisteringIsStillBuilding() {
        final KnownApp app = new KnownApp(":1.9", "/org/a11y/atspi/accessible/root");
        app.shownNodes = List.of(node(1, 0, Role.WINDOW));
        assertTrue(RefreshPasses.stillBuilding(app, app.registeredNs + 1), "Firefox right after start: its frame only");
        assertFalse(RefreshPasses.stillBuilding(app, app.registeredNs + RefreshPasses.LATE_TREE_NS),
            "later an empty window is just empty");
        app.shownNodes = List.of(node(1, 0, Role.WINDOW), node(2, 1, Role.BUTTON));
        assertFalse(RefreshPasses.stillBuilding(app, app.registeredNs + 1), "a control: the tree is there");
        app.shownNodes = List.of();
        assertFalse(RefreshPasses.stillBuilding(app, app.registeredNs + 1), "no window at all (a portal service)");
    }
}
