package dev.saccade.owner.source;

/** The grid source's system properties and their defaults; docs/settings.md lists them. */
public final class GridConfiguration {
    /** Grid cells across each display. */
    public static final String COLUMNS_PROP_NAME = "saccade.owner.grid.columns";
    /** 16 by 9: cells of about 120 × 120 pixels on 1920 × 1080, 144 of them, read in one observe. */
    public static final int COLUMNS_DEFAULT = 16;

    /** Grid cells down each display. */
    public static final String ROWS_PROP_NAME = "saccade.owner.grid.rows";
    public static final int ROWS_DEFAULT = 9;

    private GridConfiguration() {
    }

    public static int columns() {
        return Integer.getInteger(COLUMNS_PROP_NAME, COLUMNS_DEFAULT);
    }

    public static int rows() {
        return Integer.getInteger(ROWS_PROP_NAME, ROWS_DEFAULT);
    }
}
