package dev.saccade.mcp;

import dev.saccade.jsonrpc.JsonLineWriter;

/**
 * The answer to {@code tools/list} (mcp.md §3, §14): the three tools with their complete input
 * schemas, and descriptions that tell a model how to use them well; the same tools in both eras.
 * For 2026-07-28 each input schema names its dialect (JSON Schema 2020-12), each tool adds the
 * output schema its structuredContent follows, and the list adds its cache fields. Built once per
 * era.
 */
final class ToolCatalog {
    private static final String OBSERVE_DESCRIPTION =
        "Observe the desktop: returns the targets (buttons, fields, windows, grid cells...) of the newest scene"
            + " generation, each with a stable id, role, capability bits, bounds and safe point in Q8 units"
            + " (1/256 of a desktop unit), and its text. Start here, then act on target ids with the returned"
            + " generation as a precondition. Every 64-bit value (generation, ids, epochs, capture time) is a"
            + " decimal string; pass it back as that string. scope: desktop (default), active-window (scopeId ="
            + " window id, 0 = the current one), display (scopeId = display id, required), rect (xQ8, yQ8,"
            + " widthQ8, heightQ8 all four, width and height > 0). afterGeneration waits up to 2 s for a"
            + " generation newer than the one given (use it after an action to see its effect); without it the"
            + " latest scene is returned at once. truncated: more targets than maximumTargets; ask for a smaller"
            + " scope or query instead. Errors: 'Observation rejected: timeout' means no newer generation came"
            + " in time; 'Saccade service is unavailable' means the service is not running. The text block is"
            + " the scene for reading: a header with the generation, then one line per target under its window's"
            + " line: id, role, \"text\", pixel bounds x,y wxh, the act kinds it accepts (click, scroll, text,"
            + " window...) and flags (disabled, occluded, secure: an action there is refused); at most"
            + " maximumTextBytes (default 8192), structuredContent has every target in full.";
    private static final String QUERY_DESCRIPTION =
        "Query the scene for targets that match all given conditions (exactly one filter): targetId, role"
            + " (1 button, 2 link, 3 text, 4 text-field, 5 checkbox, 6 radio, 7 menu-item, 8 slider, 9 image,"
            + " 10 window), capability bits (all required), source bits (any), minimumConfidenceQ16"
            + " (65536 = 1.0), text with textMatch exact (default), prefix or substring. Returns the same"
            + " structure as saccade_observe. Every 64-bit value is a decimal string. generation pins the query"
            + " to that scene (answer 'Query rejected: stale generation' if it is no longer current: observe"
            + " again); generation and afterGeneration exclude each other. Use it to find a button by its"
            + " text, then saccade_act on its id.";
    private static final String ACT_DESCRIPTION =
        "Act on the desktop with one action, checked by the service against the scene you saw. Pass the"
            + " generation from saccade_observe/saccade_query as a precondition so the action runs only if the"
            + " scene is unchanged, and the target's id as targetId (64-bit values as decimal strings). Kinds:"
            + " move, hover, click, hold, drag, scroll, key, key-chord, text, window, release, text-select, invoke,"
            + " cycle, abort, physical. xQ8+yQ8 (Q8 = 1/256 unit) replace the target's safe point and are only for"
            + " the pointer kinds move, hover, click, hold, drag, scroll, text, text-select, invoke; the secondary"
            + " pair secondaryXQ8+secondaryYQ8 is given exactly for drag and text-select, together with the"
            + " primary pair. expectedButtons and expectedModifiers need physicalSequence (from a 'physical'"
            + " result). button: 1 left (default), 2 right, 4 middle; modifiers: 1 shift, 2 control, 4 alt, 8 meta;"
            + " keyUsage: USB HID keyboard usage for key and key-chord (e.g. 40 = Enter, 4 = A); repeat: clicks,"
            + " 1..16; deltaXQ8/deltaYQ8: scroll amounts; durationMs (0..60000): move, hover, drag and"
            + " text-select glide over that time, hold lets go by itself after it, scroll spreads over it; abort,"
            + " the end of the session and the user's own input end it early; text: the text to type (kind text). dryRun checks without input. verifyNextGeneration waits until a newer generation exists"
            + " and returns it as nextGeneration: observe with afterGeneration or generation = it to see the"
            + " effect. observeAfter appends the active window's scene after the action to the result's text, as"
            + " saccade_observe shows it (bounded by maximumTextBytes): its generation and ids serve the next action"
            + " without another observe. Results: 'Action completed.' (isError false). 'Action rejected: RT.' (isError true, the"
            + " typed result in structuredContent) with RT: 'stale generation' - the scene, window or a"
            + " precondition changed: observe again and retry with the new generation and ids; 'target not"
            + " found' - the id is gone, disabled, occluded or lacks that capability, or the point is outside it:"
            + " query again; 'target inaccessible': pick another target; 'invalid message': the arguments do not"
            + " fit the kind (button, repeat <= 16, modifiers, key usage, text); 'action unsupported': this kind or"
            + " flag cannot run here; 'capability denied' or 'permission denied': not allowed by policy or the"
            + " platform, do not retry; 'secure surface': input is refused there; 'focus changed': re-observe and"
            + " retry; 'invalid transform': displays changed, re-observe; 'timeout': the 2 s deadline passed (with"
            + " verifyNextGeneration the action ran but no newer generation came); 'cancelled': stopped by abort, or"
            + " the link was lost while verifying (the action ran); 'executor lost': the input helper is down,"
            + " nothing ran, try later; 'backend failure', 'capacity exhausted': try again later;"
            + " 'activation required': the window is behind and the action needs it in front, nothing was sent."
            + " explicitWindow (with windowId from a scope 'window' read) acts in that window only, in the background"
            + " where accessibility allows (invoke, a plain click); allowActivation lets it raise the window first."
            + " 'Action transport failed' means the outcome is unknown: observe before"
            + " acting again; an action is never resent.";

    private static final String U64 =
        "{\"oneOf\":[{\"type\":\"string\",\"pattern\":\"^[0-9]+$\"},{\"type\":\"integer\",\"minimum\":0,"
            + "\"maximum\":9007199254740991}]}";
    private static final String U32 = "{\"type\":\"integer\",\"minimum\":0,\"maximum\":4294967295}";
    private static final String U16 = "{\"type\":\"integer\",\"minimum\":0,\"maximum\":65535}";
    private static final String INT = "{\"type\":\"integer\"}";
    private static final String POSITIVE_INT = "{\"type\":\"integer\",\"minimum\":1}";
    private static final String COUNT = "{\"type\":\"integer\",\"minimum\":1,\"maximum\":10000}";
    private static final String TEXT_BYTES = "{\"type\":\"integer\",\"minimum\":" + SceneText.MIN_MAXIMUM_BYTES
        + ",\"maximum\":" + SceneText.MAX_MAXIMUM_BYTES + ",\"description\":\"bound of the text view in UTF-8 bytes"
        + " (default " + SceneText.DEFAULT_MAXIMUM_BYTES + "); structuredContent is always complete\"}";
    private static final String BOOL = "{\"type\":\"boolean\"}";
    private static final String DURATION_MS = "{\"type\":\"integer\",\"minimum\":0,\"maximum\":60000}";
    private static final String STR = "{\"type\":\"string\"}";

    private ToolCatalog() {
    }

    /**
     * The {@code tools/list} result object: the handshake era's (mcp §3) when {@code stateless}
     * is false, else the 2026-07-28 one without resultType and _meta, which the era adds.
     */
    static String render(final boolean stateless) {
        final JsonLineWriter w = new JsonLineWriter().reset();
        w.startObject().name("tools").startArray();

        tool(w, ObserveTool.NAME, OBSERVE_DESCRIPTION, stateless);
        w.name("maximumTargets").raw(COUNT);
        scope(w);
        w.name("afterGeneration").raw(U64).name(SceneText.ARGUMENT).raw(TEXT_BYTES);
        endTool(w, false, stateless ? OutputSchemas.READ : null);

        tool(w, QueryTool.NAME, QUERY_DESCRIPTION, stateless);
        w.name("generation").raw(U64).name("targetId").raw(U64);
        scope(w);
        w.name("role").raw(U16).name("capability").raw(U32).name("source").raw(U16)
            .name("minimumConfidenceQ16").raw(U32).name("text").raw(STR)
            .name("textMatch").raw(enumeration(QueryTool.TEXT_MATCHES))
            .name("maximumResults").raw(COUNT).name("afterGeneration").raw(U64)
            .name(SceneText.ARGUMENT).raw(TEXT_BYTES);
        endTool(w, false, stateless ? OutputSchemas.READ : null);

        tool(w, ActTool.NAME, ACT_DESCRIPTION, stateless);
        w.name("kind").raw(enumeration(ActTool.KINDS));
        for (final String name : new String[] {"generation", "targetId", "secondaryTargetId", "processId", "windowId",
            "displayId", "transformEpoch", "permissionEpoch", "physicalSequence"}) {
            w.name(name).raw(U64);
        }
        w.name("expectedButtons").raw(U32).name("expectedModifiers").raw(U32)
            .name("dryRun").raw(BOOL).name("verifyNextGeneration").raw(BOOL)
            .name("button").raw(U32).name("repeat").raw(U32).name("modifiers").raw(U32).name("keyUsage").raw(U32)
            .name("deltaXQ8").raw(INT).name("deltaYQ8").raw(INT).name("durationMs").raw(DURATION_MS)
            .name("xQ8").raw(INT).name("yQ8").raw(INT).name("secondaryXQ8").raw(INT).name("secondaryYQ8").raw(INT)
            .name("text").raw(STR).name("backward").raw(BOOL).name("fill").raw(BOOL)
            .name("explicitWindow").raw(BOOL).name("allowActivation").raw(BOOL)
            .name(ActTool.OBSERVE_AFTER).raw(BOOL).name(SceneText.ARGUMENT).raw(TEXT_BYTES);
        endTool(w, true, stateless ? OutputSchemas.ACT : null);

        w.endArray();
        if (stateless) {
            w.name("ttlMs").number(StatelessEra.CACHE_TTL_MS).name("cacheScope").string("public");
        }
        w.endObject();
        return w.toString();
    }

    private static void tool(final JsonLineWriter w, final String name, final String description,
        final boolean stateless) {
        w.startObject().name("name").string(name).name("description").string(description)
            .name("inputSchema").startObject();
        if (stateless) {
            w.name("$schema").string(OutputSchemas.DIALECT);
        }
        w.name("type").string("object").name("properties").startObject();
    }

    /** Closes the input schema (act requires kind), then writes the output schema when there is one. */
    private static void endTool(final JsonLineWriter w, final boolean kindRequired, final String outputSchema) {
        w.endObject();
        if (kindRequired) {
            w.name("required").startArray().string("kind").endArray();
        }
        w.endObject();
        if (outputSchema != null) {
            w.name("outputSchema").raw(outputSchema);
        }
        w.endObject();
    }

    private static void scope(final JsonLineWriter w) {
        w.name("scope").raw(enumeration(ScopeArguments.SCOPES))
            .name("scopeId").raw(U64).name("windowId").raw(U64)
            .name("sourceMode").raw(enumeration(ScopeArguments.SOURCE_MODES))
            .name("xQ8").raw(INT).name("yQ8").raw(INT)
            .name("widthQ8").raw(POSITIVE_INT).name("heightQ8").raw(POSITIVE_INT);
    }

    private static String enumeration(final String[] names) {
        final JsonLineWriter w = new JsonLineWriter().reset();
        w.startObject().name("enum").startArray();
        for (final String name : names) {
            w.string(name);
        }
        w.endArray().endObject();
        return w.toString();
    }
}
