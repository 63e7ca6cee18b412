/**
 * The owner's link to the input helper process: launching it with a session nonce, the
 * shared-memory rings plans travel on ({@link dev.saccade.owner.helper.ShmInputExecutor}), and
 * noticing its loss (lifeline end-of-file, heartbeat lapse), which turns batches into
 * EXECUTOR_LOST (D5).
 */
package dev.saccade.owner.helper;
