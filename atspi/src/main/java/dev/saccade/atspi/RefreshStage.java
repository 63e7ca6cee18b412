package dev.saccade.atspi;

/**
 * The stages of one application's refresh ({@link AppRefresh} runs them). A whole read
 * goes PROBE (first time only), BULK or WALK, DETAILS, TEXT; an incremental one CHECK (then,
 * if a window moved, the whole read), TOUCH, TOUCH_TEXT, or SUBTREE, DETAILS, TEXT
 * for the new objects of re-read subtrees (D61). Every refresh ends in DONE.
 *
 * <p>What each asks:
 * <ol>
 * <li>CHECK (a refresh request for an application no event marked, whose last read was whole):
 *     {@code GetExtents} of each top-level object that had bounds; all where they were and the
 *     refresh ends there, the last nodes unchanged ({@link AppRefresh#unchanged()}); otherwise (a window
 *     moved or resized, a call failed) the refresh goes on with the listing. AT-SPI sends events
 *     for what changes inside a window (children, states, names, text) but not for a window
 *     moved by the window manager, which is what this one batch is for.</li>
 * <li>TOUCH (events named only some objects' own facts, see {@link RefreshSchedule#touchedObject}):
 *     in the application's last tree, state, name, extents and character count of just those
 *     objects, then their text, with the windows' extents as CHECK asks them; the nodes are
 *     built again from the tree. A state that shows or hides an object, an object gone, or a
 *     touched object or a window moved or resized (what lies in it moved too, without an event)
 *     ends it ({@link AppRefresh#touchFailed()}): the application is then read whole.</li>
 * <li>PROBE (first refresh only): pid, name, interfaces of the application object, and the
 *     address of its own D-Bus server (see {@link PeerLink}).</li>
 * <li>BULK (applications with {@code Collection}, i.e. at-spi2-atk): one {@code GetMatches} for
 *     every object in canonical order, four that tell the role classes apart (binary-coded), four
 *     for states and four for interfaces. Each answers one question for all objects at once: 13
 *     calls instead of three per object. Each asks for at most budget+1 objects: the matches
 *     inside the first budget objects of canonical order are always among the first budget+1
 *     matches.</li>
 * <li>WALK (the others, e.g. Qt): breadth-first, one batch per tree level with
 *     {@code GetChildren}, role, state, interfaces and name of every object of that level; stops
 *     adding objects at the budget.</li>
 * <li>DETAILS: per object what has no bulk form: name and parent ({@code GetAll} on
 *     at-spi2-atk), extents of showing objects, action counts (walk), text lengths of text roles.
 *     A bulk refresh asks the last refresh's objects for these together with the listing, so
 *     usually only new objects are left for this stage (often none: the stage is skipped).</li>
 * <li>TEXT: the content of text roles, at most the text limit.</li>
 * <li>SUBTREE (events said the children of objects of the last whole tree changed, D61): those
 *     objects' own facts as TOUCH asks them, with the windows, and the bulk listing's matches
 *     under each ({@code GetMatches} on the object); the listing then replaces each object's old
 *     descendants in the tree ({@link SubtreeMerge}), and DETAILS and TEXT ask only the new
 *     objects and the re-read ones.</li>
 * </ol>
 */
enum RefreshStage {
    PROBE("probe"),
    BULK("bulk"),
    WALK("walk"),
    DETAILS("details"),
    TEXT("text"),
    DONE("done"),
    CHECK("check"),
    TOUCH("touch"),
    TOUCH_TEXT("touch text"),
    SUBTREE("subtree");

    /** How a deadline error names the stage it cut. */
    final String label;

    RefreshStage(final String label) {
        this.label = label;
    }
}
