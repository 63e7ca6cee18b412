package dev.saccade.wayland;

import com.sun.jna.Pointer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The toplevel windows a wlroots compositor lists through {@code zwlr_foreign_toplevel_manager_v1}
 * (version 3): title, app id, the states activated / maximized / minimized / fullscreen and the
 * outputs each one is on. The protocol has no geometry, no pid and no stacking order; a handle's
 * {@code closed} event removes it. Each handle's changes are applied at its {@code done} event
 * (the protocol's atomic commit), and {@link #changed()} says whether any was since the last call.
 *
 * <p>Confined to the connection's thread, like {@link WaylandConnection}. Bind {@link Outputs}
 * first: the compositor names a toplevel's outputs only by the client's own wl_output proxies.
 */
public final class ForeignToplevels {
    /** A state of {@code zwlr_foreign_toplevel_handle_v1.state} (the enum's values). */
    public static final int MAXIMIZED = 0;
    public static final int MINIMIZED = 1;
    public static final int ACTIVATED = 2;
    public static final int FULLSCREEN = 3;

    /** One toplevel as of its last {@code done}; {@code id} numbers the handles in arrival order from 1. */
    public record Toplevel(long id, String title, String appId, int states, List<Integer> outputs) {
        public boolean has(final int state) {
            return (states & (1 << state)) != 0;
        }
    }

    /** What a handle's events said since its last {@code done}. */
    private static final class Pending {
        final long id;
        String title = "";
        String appId = "";
        int states;
        final BitSet outputs = new BitSet();

        Pending(final long id) {
            this.id = id;
        }

        Toplevel commit() {
            final List<Integer> on = new ArrayList<>();
            outputs.stream().forEach(on::add);
            return new Toplevel(id, title, appId, states, List.copyOf(on));
        }
    }

    private final WaylandConnection connection;
    private final Outputs outputs;
    private final Pointer manager;
    private final Map<Long, Toplevel> committed = new LinkedHashMap<>();
    private long nextId = 1;
    private boolean changed = true;
    private boolean finished;

    private ForeignToplevels(final WaylandConnection connection, final Outputs outputs, final Pointer manager) {
        this.connection = connection;
        this.outputs = outputs;
        this.manager = manager;
    }

    /**
     * Binds the manager and reads the current toplevels in two round trips (one for the handles,
     * one for their first {@code done}); null when the compositor does not offer the protocol.
     */
    public static ForeignToplevels bind(final WaylandConnection connection, final Outputs outputs)
        throws java.io.IOException {
        final Pointer manager = connection.bind("zwlr_foreign_toplevel_manager_v1", WlInterfaces.FOREIGN_TOPLEVEL_MANAGER,
            3);
        if (manager == null) {
            return null;
        }
        final ForeignToplevels toplevels = new ForeignToplevels(connection, outputs, manager);
        connection.listen(manager, (opcode, args) -> {
            if (opcode == 0) {
                toplevels.follow(args.pointerAt(0));
            } else if (opcode == 1) {
                toplevels.finished = true;
            }
        });
        connection.roundtrip();
        connection.roundtrip();
        return toplevels;
    }

    private void follow(final Pointer handle) {
        final Pending pending = new Pending(nextId++);
        final long key = Pointer.nativeValue(handle);
        connection.listen(handle, (opcode, args) -> {
            switch (opcode) {
                case 0 -> pending.title = nonNull(args.stringAt(0));
                case 1 -> pending.appId = nonNull(args.stringAt(0));
                case 2 -> setOutput(pending, args.pointerAt(0), true);
                case 3 -> setOutput(pending, args.pointerAt(0), false);
                case 4 -> {
                    int states = 0;
                    for (final int s : args.intArrayAt(0)) {
                        if (s >= 0 && s < 31) {
                            states |= 1 << s;
                        }
                    }
                    pending.states = states;
                }
                case 5 -> {
                    final Toplevel next = pending.commit();
                    if (!next.equals(committed.put(key, next))) {
                        changed = true;
                    }
                }
                case 6 -> {
                    if (committed.remove(key) != null) {
                        changed = true;
                    }
                    connection.destroy(handle, 7);
                }
                default -> { }
            }
        });
    }

    private void setOutput(final Pending pending, final Pointer output, final boolean on) {
        for (int i = 0; i < outputs.list().size(); i++) {
            if (outputs.proxy(i).equals(output)) {
                pending.outputs.set(i, on);
            }
        }
    }

    private static String nonNull(final String s) {
        return s == null ? "" : s;
    }

    /** The toplevels as of their last {@code done}, in the order they appeared. */
    public List<Toplevel> list() {
        return List.copyOf(committed.values());
    }

    /** Whether a toplevel appeared, changed or closed since the last call. */
    public boolean changed() {
        final boolean was = changed;
        changed = false;
        return was;
    }

    /** The compositor sent {@code finished}: no more toplevel events will come. */
    public boolean finished() {
        return finished;
    }

    /** Asks the compositor to stop (the manager is then destroyed by its {@code finished}). */
    public void stop() {
        if (!finished) {
            connection.send(manager, 0);
        }
    }
}
