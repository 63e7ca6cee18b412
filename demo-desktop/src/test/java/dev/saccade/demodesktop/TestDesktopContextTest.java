package dev.saccade.demodesktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TestDesktopContextTest {
    @Test
    @Timeout(5)
    void defaultsToFullHdScreenWithoutApps() {
        final TestDesktopContext context = new TestDesktopContext().conclude();
        assertEquals(1920, context.screenWidth());
        assertEquals(1080, context.screenHeight());
        assertEquals(24, context.screenDepth());
        assertEquals(List.of(), context.apps());
    }

    @Test
    @Timeout(5)
    void refusesInvalidScreenSize() {
        assertThrows(IllegalArgumentException.class, () -> new TestDesktopContext().screenSize(0, 1080).conclude());
        assertThrows(IllegalArgumentException.class, () -> new TestDesktopContext().screenDepth(32).conclude());
    }

    @Test
    @Timeout(5)
    void refusesChangesAndASecondConclude() {
        final TestDesktopContext context = new TestDesktopContext().conclude();
        assertThrows(IllegalStateException.class, context::conclude);
        assertThrows(IllegalStateException.class, () -> context.apps(DemoApp.GTK3_DEMO));
    }
}
