package dev.saccade.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.saccade.client.UnexpectedReplyException;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.supervisor.SupervisorClient;
import java.io.IOException;
import java.io.StringWriter;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * One request on the supervisor's control socket {@code $RUN/saccade-supervisor-v1.sock}: one
 * line of UTF-8 JSON ({@value #MAX_LINE_BYTES} bytes at most, {@code '\n'} included) out, one
 * JSON line {@code {"ok":true,...}} or {@code {"ok":false,"error":"..."}} back, then the
 * supervisor closes. The transport is the supervisor module's {@link SupervisorClient} (the
 * peer must run as our uid, as the supervisor checks ours); this class adds the contract's line
 * rules, the reply's parse and the CLI's typed failures.
 */
final class SupervisorControlRequest {
    /** The contract's ceiling for a request line, newline included. */
    static final int MAX_LINE_BYTES = 4096;
    /** A reply longer than this is not a reply of the contract. */
    static final int MAX_REPLY_BYTES = SupervisorClient.MAX_REPLY_BYTES;
    private static final JsonFactory JSON = JsonFactory.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .build();

    private SupervisorControlRequest() {
    }

    /** The supervisor's answer: {@code ok}, and the reason when not; {@code line} as received. */
    record Reply(boolean ok, String error, String line) {
    }

    /** The control socket in this user's runtime directory. */
    static Path socket(final Map<String, String> env) throws IOException {
        return RuntimeDirectory.resolve(env).resolve(RuntimeDirectory.SUPERVISOR_SOCKET_NAME);
    }

    /** {@code {"command":"upgrade","to":"<distribution>"}} and its newline. */
    static String upgradeLine(final Path to) throws IOException {
        final StringWriter line = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(line)) {
            g.writeStartObject();
            g.writeStringField("command", "upgrade");
            g.writeStringField("to", to.toAbsolutePath().toString());
            g.writeEndObject();
        }
        return line.append('\n').toString();
    }

    /**
     * Sends {@code line} and reads the reply within {@code timeout}.
     *
     * @throws SupervisorNotRunningException no socket file, or nothing listens on it.
     * @throws EndpointUnreachableException another connect failure, or a peer of another uid.
     * @throws UnexpectedReplyException a reply that is not one JSON line of the contract.
     */
    static Reply send(final Path socket, final String line, final Duration timeout) throws IOException {
        final byte[] request = line.getBytes(StandardCharsets.UTF_8);
        if (request.length > MAX_LINE_BYTES || request.length == 0 || request[request.length - 1] != '\n'
            || line.indexOf('\n') != line.length() - 1) {
            throw new IllegalArgumentException("a control request is one line of at most " + MAX_LINE_BYTES
                + " bytes ending in a newline; this is " + request.length + " bytes");
        }
        final String reply;
        try {
            reply = SupervisorClient.request(socket, line,
                (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
        } catch (final SupervisorClient.NotRunningException e) {
            throw new SupervisorNotRunningException(socket, e.why(), e);
        } catch (final SupervisorClient.BadReplyException e) {
            throw new UnexpectedReplyException(e.getMessage());
        } catch (final SupervisorClient.ForeignPeerException e) {
            throw new EndpointUnreachableException(socket, new SocketException(e.getMessage()));
        } catch (final SocketTimeoutException | java.io.EOFException e) {
            throw e;
        } catch (final SocketException e) {
            throw new EndpointUnreachableException(socket, e);
        }
        return parse(reply);
    }

    /** Reads {@code {"ok":true|false, "error":"...", ...}}; other fields are kept in the line only. */
    static Reply parse(final String line) throws UnexpectedReplyException {
        Boolean ok = null;
        String error = null;
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new UnexpectedReplyException("the supervisor's reply is not a JSON object: " + line);
            }
            JsonToken token;
            while ((token = p.nextToken()) == JsonToken.FIELD_NAME) {
                final String name = p.currentName();
                final JsonToken value = p.nextToken();
                if (value == null) {
                    break; // truncated: the check after the loop reports it
                }
                if ("ok".equals(name)) {
                    if (!value.isBoolean()) {
                        throw new UnexpectedReplyException("\"ok\" is not true or false in the supervisor's reply: " + line);
                    }
                    ok = value == JsonToken.VALUE_TRUE;
                } else if ("error".equals(name) && value == JsonToken.VALUE_STRING) {
                    error = p.getText();
                } else {
                    p.skipChildren();
                }
            }
            if (token != JsonToken.END_OBJECT) {
                throw new UnexpectedReplyException("the supervisor's reply is not one complete JSON object: " + line);
            }
            if (p.nextToken() != null) {
                throw new UnexpectedReplyException("more than one JSON value in the supervisor's reply: " + line);
            }
        } catch (final UnexpectedReplyException e) {
            throw e;
        } catch (final IOException e) {
            throw new UnexpectedReplyException("the supervisor's reply is not valid JSON: " + line);
        }
        if (ok == null) {
            throw new UnexpectedReplyException("the supervisor's reply has no \"ok\": " + line);
        }
        if (!ok && error == null) {
            throw new UnexpectedReplyException("the supervisor's reply says not ok without an \"error\": " + line);
        }
        return new Reply(ok, error, line);
    }
}
