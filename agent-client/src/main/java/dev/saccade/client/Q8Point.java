package dev.saccade.client;

/** A point in desktop units held in Q8 (× 256, agent-abi.md §0): an action's explicit point. */
public record Q8Point(int xQ8, int yQ8) {
}
