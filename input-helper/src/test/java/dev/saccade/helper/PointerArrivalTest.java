package dev.saccade.helper;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.helper.backend.PointerState;
import dev.saccade.protocol.Button;
import org.junit.jupiter.api.Test;

/** A release is pending while the platform's pointer still holds its button; a later press takes it back. */
class PointerArrivalTest {
    private final PointerState state = new PointerState();

    @Test
    void aReleaseIsPendingUntilThePointerShowsTheButtonUp() {
        final PointerArrival arrival = new PointerArrival();
        assertFalse(arrival.pending(), "nothing sent");
        arrival.pressed(Button.LEFT);
        arrival.released(Button.LEFT);
        assertTrue(arrival.pending());
        assertFalse(arrival.arrived(state.set(5, 5, Button.LEFT, 0)), "frozen at the press");
        assertTrue(arrival.pending(), "still pending after a look that saw it held");
        assertTrue(arrival.arrived(state.set(5, 5, Button.RIGHT, 0)), "another button is not ours");
        assertFalse(arrival.pending(), "arrived clears");
    }

    @Test
    void aPressAfterTheReleaseLeavesTheButtonDownOnPurpose() {
        final PointerArrival arrival = new PointerArrival();
        arrival.released(Button.LEFT);
        arrival.released(Button.RIGHT);
        arrival.pressed(Button.LEFT); // a HOLD after a click: LEFT is meant to be down
        assertFalse(arrival.arrived(state.set(0, 0, Button.LEFT | Button.RIGHT, 0)));
        assertTrue(arrival.arrived(state.set(0, 0, Button.LEFT, 0)));
        arrival.released(Button.MIDDLE);
        arrival.clear();
        assertFalse(arrival.pending(), "cleared at a plan's start");
    }
}
