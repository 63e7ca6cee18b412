package dev.saccade.atspi;

/**
 * The stages of one application's refresh ({@link AppRefresh} says what each asks). A whole read
 * goes PROBE (first time only), BULK or WALK, DETAILS, TEXT; an incremental one CHECK (then,
 * if a window moved, the whole read) or TOUCH, TOUCH_TEXT. Every refresh ends in DONE.
 */
enum RefreshStage {
    PROBE("probe"),
    BULK("bulk"),
    WALK("walk"),
    DETAILS("details"),
    TEXT("text"),
    DONE("done"),
    CHECK("check"),
    TOUCH("touch"),
    TOUCH_TEXT("touch text");

    /** How a deadline error names the stage it cut. */
    final String label;

    RefreshStage(final String label) {
        this.label = label;
    }
}
