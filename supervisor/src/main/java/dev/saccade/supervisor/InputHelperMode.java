package dev.saccade.supervisor;

/** Who runs the input helper under a supervisor. */
public enum InputHelperMode {
    /**
     * The supervisor starts the helper and tells it which owner to attach to; owners run with
     * {@code --input-helper external}, and the helper outlives them.
     */
    SUPERVISED,
    /**
     * Each owner launches its own helper, as a lone {@code owner run} does. Works with owners
     * that predate the external helper; a planned restart then needs the old owner's helper gone.
     */
    OWNER,
    /** No helper: batches answer EXECUTOR_LOST (tests, machines without input permission). */
    NONE
}
