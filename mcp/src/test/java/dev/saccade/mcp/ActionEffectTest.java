package dev.saccade.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.ActionKind;
import org.junit.jupiter.api.Test;

class ActionEffectTest {
    @Test
    void theNoChangeHintWarnsAgainstARepeatBecauseTheAppMayKeepStateItDoesNotShow() {
        final String hint = ActionEffect.noChangeHint(1500);
        assertTrue(hint.contains("within 1500 ms"), hint);
        assertTrue(hint.contains("state the screen does not show"), hint);
        assertTrue(hint.contains("do not repeat it"), hint);
        assertTrue(hint.contains("a repeat may act twice"), hint);
    }

    @Test
    void anEffectNotYetObservedIsUnverifiableWithoutAHint() {
        final ActionEffect effect = new ActionEffect(1500, 300);
        assertEquals(ActionEffect.UNVERIFIABLE, effect.effect());
        assertNull(effect.hint());
        assertTrue(effect.observed().isEmpty());
    }

    @Test
    void onlyKindsThatChangeTheScreenAreLookedAt() {
        assertTrue(ActionEffect.expectsEffect(ActionKind.CLICK));
        assertTrue(ActionEffect.expectsEffect(ActionKind.WINDOW_ACTIVATE));
        assertFalse(ActionEffect.expectsEffect(ActionKind.POINTER_MOVE));
        assertFalse(ActionEffect.expectsEffect(ActionKind.HOLD));
    }
}
