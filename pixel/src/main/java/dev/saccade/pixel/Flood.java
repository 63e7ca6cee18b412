package dev.saccade.pixel;

/**
 * The 8-connected flood fill the pixel package's finders share ({@link BoxFinder}'s edges,
 * {@link LightTextBands}' bands, {@link GlyphShapes}' glyph parts): over a label image in which
 * the pixels that may join a region are -1, {@link #fill} gives one region an id and returns
 * its pixel count and bounds. One thread uses an instance: its stack is reused.
 */
final class Flood {
    /** Label of a pixel that may join a region and has not yet. */
    static final int OPEN = -1;

    private int[] stack = new int[0];
    private int minX;
    private int minY;
    private int maxX;
    private int maxY;

    /**
     * Labels {@code id} every {@link #OPEN} pixel 8-connected to {@code start} (itself open).
     *
     * @return how many pixels the region has; its bounds are {@link #minX()} and the others
     */
    int fill(final int[] label, final int width, final int height, final int start, final int id) {
        if (stack.length < width * height) {
            stack = new int[width * height];
        }
        int top = 0;
        stack[top++] = start;
        label[start] = id;
        minX = width;
        minY = height;
        maxX = -1;
        maxY = -1;
        int count = 0;
        while (top > 0) {
            final int i = stack[--top];
            final int x = i % width;
            final int y = i / width;
            count++;
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x);
            minY = Math.min(minY, y);
            maxY = Math.max(maxY, y);
            for (int dy = -1; dy <= 1; dy++) {
                final int ny = y + dy;
                if (ny < 0 || ny >= height) {
                    continue;
                }
                for (int dx = -1; dx <= 1; dx++) {
                    final int nx = x + dx;
                    if (nx >= 0 && nx < width) {
                        final int j = ny * width + nx;
                        if (label[j] == OPEN) {
                            label[j] = id;
                            stack[top++] = j;
                        }
                    }
                }
            }
        }
        return count;
    }

    int minX() {
        return minX;
    }

    int minY() {
        return minY;
    }

    int maxX() {
        return maxX;
    }

    int maxY() {
        return maxY;
    }
}
