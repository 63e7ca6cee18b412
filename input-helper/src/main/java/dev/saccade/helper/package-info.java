/**
 * The input helper: the one process allowed to inject input. This package holds the
 * platform-neutral part:
 * <ul>
 *   <li>{@link dev.saccade.helper.backend.InputBackend}: what a platform backend does (pointer, buttons,
 *       wheel, keys by HID usage, modifiers, text of any Unicode, window activation and cycling,
 *       flush/sync, physical state reads), answering platform codes;</li>
 *   <li>{@link dev.saccade.ipc.link.HeldInputLedger}: every key and button held and every key code
 *       rebound, in a position-independent 128-byte region meant for the shared-memory control
 *       block, so that another process can release input after the helper died;</li>
 *   <li>{@link dev.saccade.helper.GuardedBackend}: the backend wrapper that records each press
 *       before it is emitted and forgets it only after the release was flushed;</li>
 *   <li>{@link dev.saccade.helper.backend.UserInputListener}: how real user input is reported.</li>
 * </ul>
 * The X11 implementation is in {@code dev.saccade.helper.backend.xtest}. Plan execution, the
 * shared-memory link and the lifeline come with the helper's main loop.
 *
 * <p>Depends on {@code protocol}, {@code ipc-shared}, JNA and Chronicle Bytes only; never on
 * {@code owner-service}. See docs/architecture.md, "Modules and arrows" and "Processes".
 */
package dev.saccade.helper;
