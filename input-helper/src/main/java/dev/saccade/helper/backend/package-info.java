/**
 * What an input backend is and what it is handed: {@link dev.saccade.helper.backend.InputBackend}
 * with its recorder of held input, pointer state, user-input listener and the typed failure to
 * open. Below both the helper's executor and the platform backends ({@code xtest}, {@code wayland})
 * that implement it, so neither package depends on the other's.
 */
package dev.saccade.helper.backend;
