package dev.saccade.owner.source;

import java.nio.charset.StandardCharsets;

/**
 * How the grid source divides each display: {@code columns × rows} cells, labelled "r<row>c<col>"
 * so an agent can ask for a cell by text. Defaults give cells of about 120 × 120 pixels on a
 * 1920 × 1080 display: fine enough to aim at, few enough (144) to read in one observe.
 */
public final class GridLayout {
    /** A display's cells must fit beside the windows in one scene. */
    public static final int MAX_CELLS = 4096;

    private final int columns;
    private final int rows;
    private final byte[][] labels;

    public GridLayout(final int columns, final int rows) {
        if (columns < 1 || rows < 1 || (long) columns * rows > MAX_CELLS) {
            throw new IllegalArgumentException(
                "grid " + columns + "x" + rows + ": need at least 1x1 and at most " + MAX_CELLS + " cells");
        }
        this.columns = columns;
        this.rows = rows;
        labels = new byte[rows * columns][];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                labels[r * columns + c] = ("r" + r + "c" + c).getBytes(StandardCharsets.US_ASCII);
            }
        }
    }

    /** From {@link GridConfiguration}'s properties, else its defaults. */
    public static GridLayout fromSystemProperties() {
        return new GridLayout(GridConfiguration.columns(), GridConfiguration.rows());
    }

    public int columns() {
        return columns;
    }

    public int rows() {
        return rows;
    }

    byte[] label(final int row, final int column) {
        return labels[row * columns + column];
    }
}
