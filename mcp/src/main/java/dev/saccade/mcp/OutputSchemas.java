package dev.saccade.mcp;

import dev.saccade.jsonrpc.JsonLineWriter;

/**
 * The output schemas of the 2026-07-28 tool list (mcp.md §14), in JSON Schema 2020-12: the shape
 * of the structuredContent mcp §8 gives an OK read (observe and query) and any act the service
 * answered. They name every member's type and require the members a program reads first; they
 * leave other members open, so a result may carry more than they list. A client checks a result
 * against them only when isError is not true.
 */
final class OutputSchemas {
    static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    private static final String U64 = "{\"type\":\"string\",\"pattern\":\"^[0-9]+$\"}";
    private static final String INT = "{\"type\":\"integer\"}";
    private static final String BOOL = "{\"type\":\"boolean\"}";
    private static final String STR = "{\"type\":\"string\"}";

    /** The structuredContent of an OK observe or query. */
    static final String READ = read();
    /** The structuredContent of an act the service answered. */
    static final String ACT = act();

    private OutputSchemas() {
    }

    private static String read() {
        final JsonLineWriter w = open();
        w.name("generation").raw(U64);
        object(w, "epochs", U64, "scene", "frame", "captureTimeNs", "transform", "permission", "topology");
        object(w, "context", U64, "processId", "windowId", "displayId");
        w.name("scope").startObject().name("type").string("object").name("properties").startObject()
            .name("kind").raw(STR).name("sourceMode").raw(STR).name("stableId").raw(U64);
        members(w, INT, "xQ8", "yQ8", "widthQ8", "heightQ8");
        w.endObject().endObject();
        w.name("truncated").raw(BOOL).name("sourceIncomplete").raw(BOOL);
        w.name("targets").startObject().name("type").string("array").name("items").startObject()
            .name("type").string("object").name("properties").startObject()
            .name("index").raw(INT);
        members(w, U64, "id", "parentId", "windowId", "displayId");
        w.name("role").raw(STR);
        members(w, INT, "roleCode", "capabilities", "flags", "sourceBits", "confidenceQ16", "order", "xQ8", "yQ8",
            "widthQ8", "heightQ8", "safeXQ8", "safeYQ8");
        w.name("text").raw(STR).endObject();
        required(w, "id", "role", "capabilities", "xQ8", "yQ8", "widthQ8", "heightQ8");
        w.endObject().endObject();
        return close(w, "generation", "epochs", "context", "scope", "truncated", "sourceIncomplete", "targets");
    }

    private static String act() {
        final JsonLineWriter w = open();
        w.name("result").raw(INT).name("resultText").raw(STR);
        members(w, INT, "platformError", "completedActions", "failedAction");
        w.name("generation").raw(U64);
        w.name("physical").startObject().name("type").string("object").name("properties").startObject();
        members(w, INT, "xQ8", "yQ8", "buttons", "modifiers");
        members(w, U64, "activeLeaseId", "permissionEpoch", "sequence");
        w.name("flags").raw(INT).endObject().endObject();
        object(w, "nextGeneration", U64, "generation", "sceneEpoch", "frameId", "captureTimeNs", "processId",
            "windowId", "displayId");
        w.name("actions").startObject().name("type").string("array").name("items").startObject()
            .name("type").string("object").name("properties").startObject();
        members(w, INT, "index", "kind", "result");
        w.name("resultText").raw(STR).name("platformError").raw(INT);
        members(w, U64, "targetId", "secondaryTargetId", "validatedGeneration");
        w.name("flags").raw(INT).endObject().endObject().endObject();
        return close(w, "result", "resultText", "generation", "physical");
    }

    /** {@code {"$schema":…,"type":"object","properties":{} open for the members. */
    private static JsonLineWriter open() {
        final JsonLineWriter w = new JsonLineWriter().reset();
        w.startObject().name("$schema").string(DIALECT).name("type").string("object").name("properties").startObject();
        return w;
    }

    private static String close(final JsonLineWriter w, final String... required) {
        w.endObject();
        required(w, required);
        w.endObject();
        return w.toString();
    }

    /** A member that is an object whose members all have one schema. */
    private static void object(final JsonLineWriter w, final String name, final String schema, final String... members) {
        w.name(name).startObject().name("type").string("object").name("properties").startObject();
        members(w, schema, members);
        w.endObject().endObject();
    }

    private static void members(final JsonLineWriter w, final String schema, final String... names) {
        for (final String name : names) {
            w.name(name).raw(schema);
        }
    }

    private static void required(final JsonLineWriter w, final String... names) {
        w.name("required").startArray();
        for (final String name : names) {
            w.string(name);
        }
        w.endArray();
    }
}
