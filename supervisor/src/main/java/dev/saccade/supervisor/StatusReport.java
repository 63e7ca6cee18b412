package dev.saccade.supervisor;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The control socket's answers: {@code {"ok":true, ...}} with a command's fields, and the whole
 * {@code status} (the supervisor, its display, its readiness, its children), rendered on the
 * control thread from what the conductor publishes in volatile fields.
 */
final class StatusReport {
    /** Writes the fields after {@code "ok":true}. */
    interface Fields {
        void write(JsonGenerator json) throws IOException;
    }

    private final SupervisorContext context;
    private final Path endpoint;
    private final Readiness readiness;
    private final ChildRecord owner;
    private final ChildRecord helper;
    private final long startNs = System.nanoTime();

    StatusReport(final SupervisorContext context, final Path endpoint, final Readiness readiness,
        final ChildRecord owner, final ChildRecord helper) {
        this.context = context;
        this.endpoint = endpoint;
        this.readiness = readiness;
        this.owner = owner;
        this.helper = helper;
    }

    /** A successful answer with {@code fields}. */
    static String ok(final Fields fields) {
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = ControlRequest.JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeBooleanField("ok", true);
            fields.write(json);
            json.writeEndObject();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** The {@code status} answer; {@code waitingForDisplaySinceNs} is 0 when a display is known. */
    String render(final long nowNs, final long waitingForDisplaySinceNs) {
        return ok(json -> {
            json.writeStringField("pid", Long.toString(ProcessHandle.current().pid()));
            json.writeStringField("uptime_ms", Long.toString(TimeUnit.NANOSECONDS.toMillis(nowNs - startNs)));
            json.writeStringField("endpoint", endpoint.toString());
            json.writeStringField("display", context.display() == null ? "" : context.display());
            json.writeStringField("display_source", context.displaySource());
            final String why = readiness.notReady();
            json.writeBooleanField("ready", why.isEmpty());
            if (!why.isEmpty()) {
                json.writeStringField("not_ready", why);
            }
            final String hint = context.displayHint();
            if (hint != null) {
                json.writeStringField("waiting_for_display_ms", Long.toString(waitingForDisplaySinceNs == 0 ? 0
                    : TimeUnit.NANOSECONDS.toMillis(nowNs - waitingForDisplaySinceNs)));
                json.writeStringField("display_hint", hint);
            }
            json.writeArrayFieldStart("children");
            owner.write(json, nowNs);
            if (context.inputHelper()) {
                helper.write(json, nowNs);
            }
            json.writeEndArray();
        });
    }
}
