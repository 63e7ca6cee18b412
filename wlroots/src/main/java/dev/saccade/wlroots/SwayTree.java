package dev.saccade.wlroots;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.WindowInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What sway's {@code get_tree} and {@code get_outputs} say, as the owner's window and monitor
 * records. A window is a view (a node with a pid or an app_id/window property); its id is sway's
 * con id, its bounds the container's {@code rect} plus the {@code window_rect} offset (the
 * client area, decorations excluded), {@code viewable} sway's {@code visible}. The list is in
 * stacking order, bottom to top: tiled views in tree order, then floating ones (sway draws them
 * above, the last on top). Views of xdg_shell report accessible extents relative to their
 * window; XWayland views report layout positions ({@link #clientRelative}).
 */
final class SwayTree {
    private static final JsonFactory JSON = new JsonFactory();

    final List<WindowInfo> windows = new ArrayList<>();
    final Set<Long> clientRelative = new HashSet<>();
    /** XWayland views: sway's con id to the X11 window id ({@code window}). */
    final Map<Long, Long> x11Windows = new java.util.HashMap<>();
    long focused;

    private SwayTree() {
    }

    static SwayTree parse(final String getTree) throws IOException {
        final SwayTree tree = new SwayTree();
        final List<Map<String, Object>> floating = new ArrayList<>();
        tree.walk(asMap(parse(JSON.createParser(getTree))), 0, false, floating);
        for (final Map<String, Object> view : floating) {
            tree.add(view, number(view, "workspace_num"));
        }
        return tree;
    }

    @SuppressWarnings("unchecked")
    private void walk(final Map<String, Object> node, final int workspace, final boolean inFloating,
        final List<Map<String, Object>> floating) {
        int ws = workspace;
        if ("workspace".equals(node.get("type"))) {
            ws = (int) number(node, "num");
        }
        if (isView(node)) {
            if (inFloating) {
                node.put("workspace_num", (long) ws);
                floating.add(node);
            } else {
                add(node, ws);
            }
        }
        for (final Object child : (List<Object>) node.getOrDefault("nodes", List.of())) {
            walk(asMap(child), ws, inFloating, floating);
        }
        for (final Object child : (List<Object>) node.getOrDefault("floating_nodes", List.of())) {
            walk(asMap(child), ws, true, floating);
        }
    }

    private static boolean isView(final Map<String, Object> node) {
        return node.get("pid") != null || node.get("app_id") != null || node.get("window") != null
            && ("con".equals(node.get("type")) || "floating_con".equals(node.get("type")));
    }

    private void add(final Map<String, Object> view, final long workspace) {
        final Map<String, Object> rect = asMap(view.get("rect"));
        final Map<String, Object> inner = view.get("window_rect") == null ? Map.of() : asMap(view.get("window_rect"));
        final long id = number(view, "id");
        final int x = (int) (number(rect, "x") + number(inner, "x"));
        final int y = (int) (number(rect, "y") + number(inner, "y"));
        final int w = (int) (inner.isEmpty() ? number(rect, "width") : number(inner, "width"));
        final int h = (int) (inner.isEmpty() ? number(rect, "height") : number(inner, "height"));
        final Object name = view.get("name");
        final boolean visible = Boolean.TRUE.equals(view.get("visible"));
        windows.add(new WindowInfo(id, number(view, "pid"), name instanceof String s ? s : "", x, y, w, h, false,
            visible, workspace > Integer.MAX_VALUE ? WindowInfo.NO_DESKTOP : (int) workspace));
        if ("xdg_shell".equals(view.get("shell"))) {
            clientRelative.add(id);
        } else if (view.get("window") instanceof Number xid && xid.longValue() != 0) {
            x11Windows.put(id, xid.longValue());
        }
        if (Boolean.TRUE.equals(view.get("focused"))) {
            focused = id;
        }
    }

    /** The active outputs of {@code get_outputs}; the first one is the primary (sway has none). */
    static List<MonitorInfo> outputs(final String getOutputs) throws IOException {
        final List<MonitorInfo> monitors = new ArrayList<>();
        for (final Object o : (List<?>) parse(JSON.createParser(getOutputs))) {
            final Map<String, Object> output = asMap(o);
            if (Boolean.FALSE.equals(output.get("active"))) {
                continue;
            }
            final Map<String, Object> rect = asMap(output.get("rect"));
            final String name = String.valueOf(output.get("name"));
            monitors.add(new MonitorInfo(MonitorInfo.stableId(name), name, (int) number(rect, "x"),
                (int) number(rect, "y"), (int) number(rect, "width"), (int) number(rect, "height"), monitors.isEmpty()));
        }
        return monitors;
    }

    private static long number(final Map<String, Object> map, final String key) {
        return map.get(key) instanceof Number n ? n.longValue() : 0;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(final Object value) {
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object: " + value);
        }
        return (Map<String, Object>) value;
    }

    /** A JSON value as Map, List, String, Long, Double, Boolean or null. */
    private static Object parse(final JsonParser parser) throws IOException {
        try (parser) {
            parser.nextToken();
            return value(parser);
        }
    }

    private static Object value(final JsonParser p) throws IOException {
        final JsonToken token = p.currentToken();
        if (token == null) {
            throw new IOException("truncated JSON");
        }
        switch (token) {
            case START_OBJECT: {
                final Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    final String key = p.currentName();
                    p.nextToken();
                    map.put(key, value(p));
                }
                return map;
            }
            case START_ARRAY: {
                final List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    list.add(value(p));
                }
                return list;
            }
            case VALUE_STRING: return p.getText();
            case VALUE_NUMBER_INT: return p.getLongValue();
            case VALUE_NUMBER_FLOAT: return p.getDoubleValue();
            case VALUE_TRUE: return Boolean.TRUE;
            case VALUE_FALSE: return Boolean.FALSE;
            case VALUE_NULL: return null;
            default: throw new IOException("unexpected JSON token " + token);
        }
    }
}
