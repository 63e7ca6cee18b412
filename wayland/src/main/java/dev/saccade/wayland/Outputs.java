package dev.saccade.wayland;

import com.sun.jna.Pointer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The compositor's outputs from {@code wl_output} (geometry 0: x, y in the layout; mode 1: flags,
 * width, height, current = flag 1; scale 3; name 4 since version 4). Positions and sizes are in
 * output pixels: with a scale of 1, as on a headless sway, they are layout coordinates too; a
 * scaled output needs xdg-output's logical size, which this class does not read yet.
 */
public final class Outputs {
    /** One output: its position in the layout, current mode size, scale and name (null before version 4). */
    public static final class Output {
        private int x;
        private int y;
        private int width;
        private int height;
        private int scale = 1;
        private String name;

        public int x() {
            return x;
        }

        public int y() {
            return y;
        }

        public int width() {
            return width;
        }

        public int height() {
            return height;
        }

        public int scale() {
            return scale;
        }

        public String name() {
            return name;
        }

        @Override
        public String toString() {
            return (name == null ? "output" : name) + " " + width + "x" + height + "+" + x + "+" + y
                + (scale == 1 ? "" : " scale " + scale);
        }
    }

    private static final int MODE_CURRENT = 1;

    private final List<Output> outputs = new ArrayList<>();
    private final List<Pointer> proxies = new ArrayList<>();

    private Outputs() {
    }

    /** Binds every wl_output global and reads their state in one round trip. */
    public static Outputs read(final WaylandConnection connection) throws IOException {
        final Outputs result = new Outputs();
        for (final WaylandConnection.Global g : connection.globals()) {
            if (!g.interfaceName().equals("wl_output")) {
                continue;
            }
            final Output output = new Output();
            final Pointer proxy = connection.bind(g, WlInterfaces.WL_OUTPUT, 4);
            result.outputs.add(output);
            result.proxies.add(proxy);
            connection.listen(proxy, (opcode, args) -> {
                switch (opcode) {
                    case 0 -> {
                        output.x = args.intAt(0);
                        output.y = args.intAt(1);
                    }
                    case 1 -> {
                        if ((args.intAt(0) & MODE_CURRENT) != 0) {
                            output.width = args.intAt(1);
                            output.height = args.intAt(2);
                        }
                    }
                    case 3 -> output.scale = args.intAt(0);
                    case 4 -> output.name = args.stringAt(0);
                    default -> { }
                }
            });
        }
        connection.roundtrip();
        return result;
    }

    public List<Output> list() {
        return List.copyOf(outputs);
    }

    /** The wl_output proxy of output {@code index}, for screencopy. */
    public Pointer proxy(final int index) {
        return proxies.get(index);
    }

    /** Width of the layout's bounding box from (0, 0): the x extent of absolute pointer motion. */
    public int layoutWidth() {
        int w = 0;
        for (final Output o : outputs) {
            w = Math.max(w, o.x + o.width / Math.max(1, o.scale));
        }
        return w;
    }

    public int layoutHeight() {
        int h = 0;
        for (final Output o : outputs) {
            h = Math.max(h, o.y + o.height / Math.max(1, o.scale));
        }
        return h;
    }
}
