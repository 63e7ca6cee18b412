package dev.saccade.supervisor;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * What {@code status} reports of one child: pid, version, restarts, uptime, last exit. Written by
 * the conductor only; the fields are volatile so the control thread reads a recent value.
 */
final class ChildRecord {
    private final String name;
    private volatile long pid = -1;
    private volatile String version = "";
    private volatile long startedNs;
    private volatile long restarts;
    private volatile String lastExit = "";
    private volatile long generation = -1;

    ChildRecord(final String name) {
        this.name = name;
    }

    void running(final long childPid, final String childVersion, final long nowNs) {
        pid = childPid;
        version = childVersion;
        startedNs = nowNs;
    }

    void generation(final long value) {
        generation = value;
    }

    void exited(final String how) {
        pid = -1;
        lastExit = how;
    }

    void restarted() {
        restarts++;
    }

    long restarts() {
        return restarts;
    }

    /** One entry of the status reply's {@code children} array; 64-bit values as decimal strings. */
    void write(final JsonGenerator json, final long nowNs) throws IOException {
        json.writeStartObject();
        json.writeStringField("name", name);
        final long p = pid;
        json.writeBooleanField("running", p > 0);
        json.writeStringField("pid", p > 0 ? Long.toString(p) : "");
        json.writeStringField("version", version);
        json.writeStringField("restarts", Long.toString(restarts));
        json.writeStringField("uptime_ms", p > 0 ? Long.toString(TimeUnit.NANOSECONDS.toMillis(nowNs - startedNs)) : "0");
        json.writeStringField("last_exit", lastExit);
        if (generation >= 0) {
            json.writeStringField("generation", Long.toString(generation));
        }
        json.writeEndObject();
    }
}
