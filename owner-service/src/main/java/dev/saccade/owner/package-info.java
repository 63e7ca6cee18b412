/**
 * The desktop owner: the owner loop, {@code AgentService} validation against scene
 * generations, the wiring of the scene sources (the desktop backend the display needs, AT-SPI2,
 * pixels; their modules are {@code x11}, {@code wlroots}, {@code atspi}, {@code pixel}), the
 * composer, the immutable scene store, the {@code ActionPlanner}, the link to the input helper
 * and the agent endpoint.
 *
 * <p>Depends on {@code protocol}, {@code ipc-shared}, {@code desktop-model} and the source and
 * backend modules; never on {@code input-helper}.
 *
 * <p>See docs/architecture.md, "Modules and arrows" and "Processes".
 */
package dev.saccade.owner;
