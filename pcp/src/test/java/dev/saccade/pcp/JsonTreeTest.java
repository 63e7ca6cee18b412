package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTreeTest {
    @Test
    void canonicalFormSortsMembersAndDropsWhitespace() throws Exception {
        final Object value = JsonTree.parse("{ \"b\": [1, {\"z\": true, \"a\": null}], \"a\": \"\\u00e9\", \"B\": 2.5 }");
        assertEquals("{\"B\":2.5,\"a\":\"é\",\"b\":[1,{\"a\":null,\"z\":true}]}", JsonTree.canonical(value));
        assertEquals("{\"b\":[1,{\"z\":true,\"a\":null}],\"a\":\"é\",\"B\":2.5}", JsonTree.write(value));
    }

    @Test
    void keepsNullApartFromAbsentAndRefusesTrailingOrDeepInput() throws Exception {
        final Map<?, ?> m = (Map<?, ?>) JsonTree.parse("{\"id\":null}");
        assertEquals(JsonTree.NULL, m.get("id"));
        assertEquals(List.of(), JsonTree.parse("[]"));
        assertThrows(JsonProcessingException.class, () -> JsonTree.parse("{} {}"));
        assertThrows(JsonProcessingException.class, () -> JsonTree.parse(""));
        assertThrows(JsonProcessingException.class, () -> JsonTree.parse("[".repeat(10_000)));
    }
}
