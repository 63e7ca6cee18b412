package dev.saccade.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every struct's size and every field's offset equal the tables of spec/agent-abi.md §3. The
 * offsets below are typed in from the spec, not taken from the code, so a changed constant or
 * a changed accessor fails here. Each field is written through its setter with a distinct value
 * and read back as raw bytes at the spec's offset, after all fields were written, so overlaps
 * show too.
 */
class AbiLayoutTest {
    /** name, size, then "offset field type" rows as in the spec. */
    private static final Object[][] TABLES = {
        {HeaderFlyweight.class, 16, "0 struct_size u32n; 4 api_version i32; 8 message_kind i32; 12 flags i32"},
        {HelloRequestFlyweight.class, 48,
            "0 header Header; 16 request_id u64; 24 requested_capability_bits i32; 28 flags i32; 32 client_nonce nonce"},
        {HelloCompletionFlyweight.class, 56,
            "0 header Header; 16 request_id u64; 24 result i32; 28 platform_error i32; "
                + "32 granted_capability_bits i32; 36 reserved -; 40 service_nonce nonce"},
        {ScopeFlyweight.class, 32, "0 kind i32; 4 source_mode i32; 8 stable_id u64; 16 rect Rect"},
        {FreshnessFlyweight.class, 24, "0 policy i32; 4 flags i32; 8 after_generation u64; 16 timeout_ns u64"},
        {GenerationFlyweight.class, 80,
            "0 generation u64; 8 scene_epoch u64; 16 frame_id u64; 24 capture_time_ns u64; 32 process_id u64; "
                + "40 window_id u64; 48 display_id u64; 56 transform_epoch u64; 64 topology_epoch u64; "
                + "72 permission_epoch u64"},
        {TargetFlyweight.class, 88,
            "0 target_id u64; 8 parent_id u64; 16 window_id u64; 24 display_id u64; 32 bounds Rect; "
                + "48 safe_point Point; 56 capability_bits i32; 60 flags i32; 64 role u16; 66 source_bits u16; "
                + "68 confidence_q16 u32n; 72 text_offset u32n; 76 text_size u32n; 80 order u32n; 84 reserved -"},
        {QueryFilterFlyweight.class, 72,
            "0 flags i32; 4 role u16; 6 source_bits u16; 8 required_capability_bits i32; "
                + "12 forbidden_capability_bits i32; 16 target_id u64; 24 relation_target_id u64; 32 geometry Rect; "
                + "48 minimum_confidence_q16 u32n; 52 text_match i32; 56 text_offset u32n; 60 text_size u32n; "
                + "64 relation i32; 68 reserved -"},
        {ObserveRequestFlyweight.class, 96,
            "0 header Header; 16 request_id u64; 24 scope Scope; 56 freshness Freshness; "
                + "80 requested_capability_bits i32; 84 maximum_targets u32n; 88 target_stride u32n; "
                + "92 total_capacity u32n"},
        {CompletionFlyweight.class, 168,
            "0 header Header; 16 request_id u64; 24 result i32; 28 platform_error i32; "
                + "32 granted_capability_bits i32; 36 target_count u32n; 40 target_stride u32n; "
                + "44 targets_offset u32n; 48 total_size u32n; 52 reserved -; 56 generation Generation; "
                + "136 scope Scope"},
        {QueryRequestFlyweight.class, 112,
            "0 header Header; 16 request_id u64; 24 generation u64; 32 scope Scope; "
                + "64 requested_capability_bits i32; 68 maximum_results u32n; 72 filter_count u32n; "
                + "76 filter_stride u32n; 80 filters_offset u32n; 84 total_size u32n; 88 freshness Freshness"},
        {PreconditionsFlyweight.class, 72,
            "0 flags i32; 4 expected_buttons i32; 8 expected_modifiers i32; 12 reserved -; 16 generation u64; "
                + "24 process_id u64; 32 window_id u64; 40 display_id u64; 48 transform_epoch u64; "
                + "56 permission_epoch u64; 64 physical_sequence u64"},
        {ActionFlyweight.class, 80,
            "0 kind i32; 4 flags i32; 8 target_id u64; 16 secondary_target_id u64; 24 point Point; "
                + "32 secondary_point Point; 40 button_bits i32; 44 modifiers i32; 48 key_usage u32n; "
                + "52 repeat_count u32n; 56 delta_x_q8 i32; 60 delta_y_q8 i32; 64 duration_ns u64; "
                + "72 payload_offset u32n; 76 payload_size u32n"},
        {ActionBatchFlyweight.class, 136,
            "0 header Header; 16 request_id u64; 24 requested_capability_bits i32; 28 policy i32; "
                + "32 deadline_ns u64; 40 preconditions Preconditions; 112 action_count u32n; "
                + "116 action_stride u32n; 120 actions_offset u32n; 124 payload_offset u32n; "
                + "128 payload_size u32n; 132 total_size u32n"},
        {ActionResultFlyweight.class, 48,
            "0 action_index u32n; 4 kind i32; 8 result i32; 12 platform_error i32; 16 resolved_target_id u64; "
                + "24 resolved_secondary_target_id u64; 32 validated_generation u64; 40 flags i32; 44 reserved -"},
        {PhysicalStateFlyweight.class, 48,
            "0 pointer Point; 8 buttons i32; 12 modifiers i32; 16 active_lease_id u64; 24 permission_epoch u64; "
                + "32 physical_sequence u64; 40 flags i32; 44 user_modifiers i32"},
        {ActionCompletionFlyweight.class, 192,
            "0 header Header; 16 request_id u64; 24 result i32; 28 platform_error i32; "
                + "32 completed_action_count u32n; 36 failed_action_index u32n; 40 action_result_count u32n; "
                + "44 action_result_stride u32n; 48 action_results_offset u32n; 52 total_size u32n; "
                + "56 validated_generation u64; 64 physical_state PhysicalState; 112 next_generation Generation"},
    };

    @Test
    void structSizesAreTheSpecsInItsOrder() {
        // Conformance case 1: 16, 48, 56, 16, 8, 32, 24, 80, 88, 72, 96, 168, 112, 168, 72, 80, 136, 48, 48, 192.
        assertEquals(List.of(16, 48, 56, 16, 8, 32, 24, 80, 88, 72, 96, 168, 112, 168, 72, 80, 136, 48, 48, 192),
            List.of(HeaderFlyweight.LENGTH, HelloRequestFlyweight.LENGTH, HelloCompletionFlyweight.LENGTH,
                RectQ8.LENGTH, RectQ8.POINT_LENGTH, ScopeFlyweight.LENGTH, FreshnessFlyweight.LENGTH,
                GenerationFlyweight.LENGTH, TargetFlyweight.LENGTH, QueryFilterFlyweight.LENGTH,
                ObserveRequestFlyweight.LENGTH, CompletionFlyweight.LENGTH, QueryRequestFlyweight.LENGTH,
                CompletionFlyweight.LENGTH, PreconditionsFlyweight.LENGTH, ActionFlyweight.LENGTH,
                ActionBatchFlyweight.LENGTH, ActionResultFlyweight.LENGTH, PhysicalStateFlyweight.LENGTH,
                ActionCompletionFlyweight.LENGTH));
    }

    @Test
    void rectAndPointFieldsSitWhereTheSpecSays() {
        assertEquals(0, RectQ8.X_OFFSET);
        assertEquals(4, RectQ8.Y_OFFSET);
        assertEquals(8, RectQ8.WIDTH_OFFSET);
        assertEquals(12, RectQ8.HEIGHT_OFFSET);
    }

    @Test
    void spotChecksOfConformanceCaseTwo() {
        assertEquals(56, CompletionFlyweight.GENERATION_OFFSET);
        assertEquals(136, CompletionFlyweight.SCOPE_OFFSET);
        assertEquals(88, QueryRequestFlyweight.FRESHNESS_OFFSET);
        assertEquals(40, ActionBatchFlyweight.PRECONDITIONS_OFFSET);
        assertEquals(120, ActionBatchFlyweight.ACTIONS_OFFSET_OFFSET);
        assertEquals(64, ActionCompletionFlyweight.PHYSICAL_STATE_OFFSET);
        assertEquals(112, ActionCompletionFlyweight.NEXT_GENERATION_OFFSET);
    }

    @TestFactory
    Stream<DynamicTest> everyFieldRoundTripsAtTheSpecsOffset() {
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Object[] table : TABLES) {
            final Class<?> type = (Class<?>) table[0];
            tests.add(DynamicTest.dynamicTest(type.getSimpleName(),
                () -> checkStruct(type, (Integer) table[1], (String) table[2])));
        }
        return tests.stream();
    }

    private static void checkStruct(final Class<?> type, final int size, final String rows) throws Exception {
        assertEquals(size, type.getField("LENGTH").getInt(null), type.getSimpleName() + ".LENGTH");
        final int base = 24; // a nonzero offset proves wrap() is honoured
        final BytesStore<?, ?> store = Bytes.allocateElasticOnHeap(base + size + 16).bytesStore();
        store.zeroOut(0, store.capacity());
        final Flyweight<?> fw = (Flyweight<?>) type.getConstructor().newInstance();
        fw.wrap(store, base);
        assertEquals(size, fw.length());

        final String[] fields = rows.split(";\\s*");
        long seed = 0x0102030405060708L;
        final long[] expected = new long[fields.length * 4];
        // Write every field first ...
        for (int i = 0; i < fields.length; i++) {
            final String[] f = fields[i].trim().split(" ");
            final int offset = Integer.parseInt(f[0]);
            final String name = f[1];
            final String kind = f[2];
            assertEquals(offset, type.getField(name.toUpperCase(Locale.ROOT) + "_OFFSET").getInt(null),
                type.getSimpleName() + "." + name);
            final String camel = camel(name);
            for (int part = 0; part < 4; part++) {
                expected[i * 4 + part] = distinct(seed, i, part, kind);
            }
            switch (kind) {
                case "u64":
                    type.getMethod(camel, long.class).invoke(fw, expected[i * 4]);
                    break;
                case "u32n":
                    type.getMethod(camel, long.class).invoke(fw, expected[i * 4]);
                    break;
                case "i32":
                case "u16":
                    type.getMethod(camel, int.class).invoke(fw, (int) expected[i * 4]);
                    break;
                case "nonce":
                    type.getMethod(camel, int.class, long.class).invoke(fw, 0, expected[i * 4]);
                    type.getMethod(camel, int.class, long.class).invoke(fw, 1, expected[i * 4 + 1]);
                    break;
                case "Rect":
                    type.getMethod(camel, int.class, int.class, int.class, int.class).invoke(fw,
                        (int) expected[i * 4], (int) expected[i * 4 + 1], (int) expected[i * 4 + 2],
                        (int) expected[i * 4 + 3]);
                    break;
                case "Point":
                    type.getMethod(camel, int.class, int.class).invoke(fw,
                        (int) expected[i * 4], (int) expected[i * 4 + 1]);
                    break;
                case "-":
                    break;
                default: // a nested struct: its view must sit at the field's offset
                    final Flyweight<?> nested = (Flyweight<?>) type.getMethod(camel).invoke(fw);
                    assertEquals(base + offset, nested.offset(), type.getSimpleName() + "." + name + " view");
                    assertEquals(type.getDeclaredField(camel).getType().getField("LENGTH").getInt(null),
                        nested.length());
                    break;
            }
        }
        // ... then read every field back, raw at the spec's offset and through its getter.
        for (int i = 0; i < fields.length; i++) {
            final String[] f = fields[i].trim().split(" ");
            final long at = base + Integer.parseInt(f[0]);
            final String kind = f[2];
            final String camel = camel(f[1]);
            final String where = type.getSimpleName() + "." + f[1];
            switch (kind) {
                case "u64":
                    assertEquals(expected[i * 4], store.readLong(at), where);
                    assertEquals(expected[i * 4], type.getMethod(camel).invoke(fw), where);
                    break;
                case "u32n":
                    assertEquals(expected[i * 4], store.readUnsignedInt(at), where);
                    assertEquals(expected[i * 4], type.getMethod(camel).invoke(fw), where);
                    break;
                case "i32":
                    assertEquals((int) expected[i * 4], store.readInt(at), where);
                    assertEquals((int) expected[i * 4], type.getMethod(camel).invoke(fw), where);
                    break;
                case "u16":
                    assertEquals((int) expected[i * 4], store.readUnsignedShort(at), where);
                    assertEquals((int) expected[i * 4], type.getMethod(camel).invoke(fw), where);
                    break;
                case "nonce":
                    assertEquals(expected[i * 4], store.readLong(at), where);
                    assertEquals(expected[i * 4 + 1], store.readLong(at + 8), where);
                    assertEquals(expected[i * 4 + 1], type.getMethod(camel, int.class).invoke(fw, 1), where);
                    break;
                case "Rect":
                case "Point":
                    final String[] parts = kind.equals("Rect")
                        ? new String[] {"X", "Y", "Width", "Height"} : new String[] {"X", "Y"};
                    for (int p = 0; p < parts.length; p++) {
                        assertEquals((int) expected[i * 4 + p], store.readInt(at + 4L * p), where + parts[p]);
                        final Method m = type.getMethod(camel + parts[p] + "Q8");
                        assertEquals((int) expected[i * 4 + p], m.invoke(fw), where + parts[p]);
                    }
                    break;
                default:
                    break;
            }
        }
        // Nothing was written outside the struct.
        for (long b = 0; b < base; b++) {
            assertEquals(0, store.readByte(b), "byte before the struct");
        }
        for (long b = base + size; b < store.capacity(); b++) {
            assertEquals(0, store.readByte(b), "byte after the struct");
        }
        fw.clear();
        for (long b = base; b < base + size; b++) {
            assertEquals(0, store.readByte(b), "clear() zeroes the struct");
        }
    }

    /** A value unique to field i, part p, that uses every byte of the field's width. */
    private static long distinct(final long seed, final int i, final int p, final String kind) {
        final long v = seed * (i * 4 + p + 1) ^ 0x8081828384858687L * (p + 1);
        switch (kind) {
            case "u16":
                return (v & 0x7FFF) | 0x8000 | (i << 4);
            case "u32n":
                return (v & 0xFFFF_FFFFL) | 0x8000_0000L;
            case "i32":
            case "Rect":
            case "Point":
                return (int) (v ^ (i << 8) ^ p);
            default:
                return v ^ ((long) i << 40) ^ p;
        }
    }

    private static String camel(final String snake) {
        final StringBuilder b = new StringBuilder();
        boolean up = false;
        for (final char c : snake.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return b.toString();
    }
}
