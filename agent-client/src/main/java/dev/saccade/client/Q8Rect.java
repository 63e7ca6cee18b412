package dev.saccade.client;

/**
 * A rectangle in desktop units held in Q8 (× 256, agent-abi.md §0): a RECT scope or a GEOMETRY
 * filter, as a caller gave it.
 */
public record Q8Rect(int xQ8, int yQ8, int widthQ8, int heightQ8) {
}
