/**
 * Test fixtures shared by every module's tests: waiting for a condition to a deadline
 * ({@link dev.saccade.testsupport.Await}) and queueing what a listener is given until a test
 * finds the one it waits for ({@link dev.saccade.testsupport.SnapshotQueue}).
 */
package dev.saccade.testsupport;
