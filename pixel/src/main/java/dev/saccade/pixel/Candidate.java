package dev.saccade.pixel;

import java.util.ArrayList;
import java.util.List;

/** A candidate box and what was read in it. */
final class Candidate {
    final int x;
    final int y;
    final int w;
    final int h;
    final boolean exact; // an X child window: exact geometry
    boolean bordered;
    double cover;
    boolean container;
    boolean read;
    final List<OcrWord> words = new ArrayList<>();
    float ocrConfidence = 100f;

    Candidate(final int x, final int y, final int w, final int h, final boolean exact, final boolean bordered,
        final double cover) {
        this.x = x;
        this.y = y;
        this.w = w;
        this.h = h;
        this.exact = exact;
        this.bordered = bordered;
        this.cover = cover;
    }

    boolean holds(final int px, final int py) {
        return px >= x && px < x + w && py >= y && py < y + h;
    }
}
