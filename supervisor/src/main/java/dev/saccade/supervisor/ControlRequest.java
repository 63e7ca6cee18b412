package dev.saccade.supervisor;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * One request on the supervisor's control socket: a single line of UTF-8 JSON, at most
 * {@value #MAX_LINE_BYTES} bytes, {@code {"command":"status"}}, {@code {"command":"restart",
 * "target":"owner"|"helper"|"all"}}, {@code {"command":"upgrade","to":"/abs/dist"}} or
 * {@code {"command":"stop"}}. Both ends (the supervisor and {@code saccade supervisor|upgrade})
 * build and read it here, so they cannot disagree.
 */
public final class ControlRequest {
    public static final int MAX_LINE_BYTES = 4096;
    public static final String STATUS = "status";
    public static final String RESTART = "restart";
    public static final String UPGRADE = "upgrade";
    public static final String STOP = "stop";
    public static final String OWNER = "owner";
    public static final String HELPER = "helper";
    public static final String ALL = "all";
    static final JsonFactory JSON = new JsonFactory();

    private final String command;
    /** restart: owner, helper or all; upgrade: the distribution path; else null. */
    private final String argument;

    private ControlRequest(final String command, final String argument) {
        this.command = command;
        this.argument = argument;
    }

    public static String status() {
        return line(STATUS, null, null);
    }

    public static String restart(final String target) {
        return line(RESTART, "target", target);
    }

    public static String upgrade(final Path distribution) {
        return line(UPGRADE, "to", distribution.toString());
    }

    public static String stop() {
        return line(STOP, null, null);
    }

    private static String line(final String command, final String field, final String value) {
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("command", command);
            if (field != null) {
                json.writeStringField(field, value);
            }
            json.writeEndObject();
        } catch (final IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    /**
     * Parses and checks one request line (without its '\n').
     *
     * @throws IllegalArgumentException with the reason to send back as the error.
     */
    static ControlRequest parse(final String line) {
        String command = null;
        String target = null;
        String to = null;
        try (JsonParser parser = JSON.createParser(line)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a request is one JSON object");
            }
            for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
                if (t != JsonToken.FIELD_NAME) {
                    throw new IllegalArgumentException("malformed request");
                }
                final String name = parser.currentName();
                if (parser.nextToken() != JsonToken.VALUE_STRING) {
                    throw new IllegalArgumentException("field '" + name + "' must be a string");
                }
                switch (name) {
                    case "command": command = parser.getText(); break;
                    case "target": target = parser.getText(); break;
                    case "to": to = parser.getText(); break;
                    default: throw new IllegalArgumentException("unknown field '" + name + "'");
                }
            }
            if (parser.nextToken() != null) {
                throw new IllegalArgumentException("one JSON object per line");
            }
        } catch (final IOException e) {
            throw new IllegalArgumentException("malformed JSON: " + (e instanceof com.fasterxml.jackson.core.JsonProcessingException ? ((com.fasterxml.jackson.core.JsonProcessingException) e).getOriginalMessage() : e.getMessage()));
        }
        if (command == null) {
            throw new IllegalArgumentException("missing field 'command'");
        }
        switch (command) {
            case STATUS:
            case STOP:
                return new ControlRequest(command, null);
            case RESTART:
                if (target == null) {
                    target = OWNER;
                }
                if (!OWNER.equals(target) && !HELPER.equals(target) && !ALL.equals(target)) {
                    throw new IllegalArgumentException("restart target must be owner, helper or all, not '" + target + "'");
                }
                return new ControlRequest(command, target);
            case UPGRADE:
                if (to == null || !Path.of(to).isAbsolute()) {
                    throw new IllegalArgumentException("upgrade needs 'to': the absolute path of a distribution");
                }
                return new ControlRequest(command, to);
            default:
                throw new IllegalArgumentException("unknown command '" + command + "'");
        }
    }

    String command() {
        return command;
    }

    String argument() {
        return argument;
    }

    /** {@code {"ok":false,"error":reason}}. */
    static String error(final String reason) {
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeBooleanField("ok", false);
            json.writeStringField("error", reason);
            json.writeEndObject();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
