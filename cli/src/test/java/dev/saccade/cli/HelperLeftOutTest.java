package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.owner.helper.InputHelperLauncher;
import dev.saccade.supervisor.SupervisorContext;
import org.junit.jupiter.api.Test;

/** The owner and the supervisor start the same helper: same entry point, same classpath rule. */
class HelperLeftOutTest {
    @Test
    void ownerAndSupervisorLeaveTheSameOut() {
        assertEquals(SupervisorContext.HELPER_MAIN_CLASS, InputHelperLauncher.MAIN_CLASS);
        assertEquals(SupervisorContext.HELPER_LEFT_OUT, InputHelperLauncher.LEFT_OUT);
    }
}
