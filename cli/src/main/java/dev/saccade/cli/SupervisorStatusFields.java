package dev.saccade.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.saccade.client.UnexpectedReplyException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The top-level string fields of a supervisor {@code status} reply (pid, display, display_source, ...). */
final class SupervisorStatusFields {
    private static final JsonFactory JSON = new JsonFactory();

    private SupervisorStatusFields() {
    }

    static Map<String, String> of(final String reply) throws IOException {
        final Map<String, String> fields = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(reply)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new UnexpectedReplyException("the supervisor's status is not a JSON object: " + reply);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                final String name = p.currentName();
                final JsonToken value = p.nextToken();
                if (value == JsonToken.VALUE_STRING) {
                    fields.put(name, p.getText());
                } else {
                    p.skipChildren();
                }
            }
        }
        return fields;
    }
}
