/**
 * Immutable scene generations. Sources build a {@link dev.saccade.owner.scene.ScenePacket}
 * (target records in the wire layout, a text lane, the interaction state) in a preallocated
 * off-heap buffer on their own thread; {@link dev.saccade.owner.scene.SceneStore} hands it to
 * the owner thread with one store, and recycles packets the owner no longer reads, so memory is
 * bounded by the pool and never by uptime.
 */
package dev.saccade.owner.scene;
