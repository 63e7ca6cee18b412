package dev.saccade.protocol.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.protocol.Flyweight;
import dev.saccade.protocol.PhysicalStateFlyweight;
import java.util.Locale;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/**
 * The plan records sit exactly where their javadoc diagrams say. The offsets below are typed in
 * from those diagrams, not taken from the code, so a changed constant or accessor fails here.
 * Every field is written through its setter with a distinct value that uses all its bytes, then
 * all are read back raw at the documented offset and through the getter, so overlaps show too.
 */
class PlanLayoutTest {
    private static final String PLAN = "0 plan_id u64; 8 deadline_ns u64; 16 validated_generation u64; "
        + "24 permission_epoch u64; 32 lease_id u64; 40 command_count u32; 44 flags i32; 48 text_size u32; "
        + "52 total_size u32; 56 action_count u32; 60 reserved -";
    private static final String COMMAND = "0 op u16; 2 flags u16; 4 action_index u16; 6 reserved -; 8 a i32; "
        + "12 b i32; 16 c u64; 24 d u64";
    private static final String COMPLETION = "0 plan_id u64; 8 result i32; 12 platform_error i32; "
        + "16 completed_actions u32; 20 failed_action_index u32; 24 commands_executed u32; 28 reserved -; "
        + "32 physical_state -";

    @Test
    void sizesAndLimitsAreTheDocumentedOnes() {
        assertEquals(64, ActionPlanFlyweight.LENGTH);
        assertEquals(64, ActionPlanFlyweight.COMMANDS_OFFSET);
        assertEquals(32, PlanCommandFlyweight.LENGTH);
        assertEquals(80, PlanCompletionFlyweight.LENGTH);
        assertEquals(32, PlanCompletionFlyweight.PHYSICAL_STATE_OFFSET);
        assertEquals(48, PhysicalStateFlyweight.LENGTH);
        assertEquals(4_096, ActionPlanFlyweight.MAX_COMMANDS);
        assertEquals(65_536, ActionPlanFlyweight.MAX_TEXT);
        assertEquals(196_672, ActionPlanFlyweight.MAX_PLAN_BYTES);
        assertEquals(0x1, ActionPlanFlyweight.KEEP_HELD);
    }

    @Test
    void opcodesAreTheDocumentedOnes() {
        final String[] names = {"MOVE", "BUTTON_DOWN", "BUTTON_UP", "KEY_DOWN", "KEY_UP", "MODIFIERS_DOWN",
            "MODIFIERS_UP", "SCROLL", "TEXT", "WINDOW_ACTIVATE", "WINDOW_CYCLE", "RELEASE_ALL", "ACTION_END"};
        for (int i = 0; i < names.length; i++) {
            assertEquals(names[i], PlanOp.name(i + 1));
        }
        assertEquals("UNKNOWN", PlanOp.name(0));
        assertEquals("UNKNOWN", PlanOp.name(14));
    }

    @Test
    void planHeaderFieldsRoundTripAtTheirOffsets() throws Exception {
        check(ActionPlanFlyweight.class, 64, PLAN);
    }

    @Test
    void commandFieldsRoundTripAtTheirOffsets() throws Exception {
        check(PlanCommandFlyweight.class, 32, COMMAND);
    }

    @Test
    void completionFieldsRoundTripAtTheirOffsets() throws Exception {
        check(PlanCompletionFlyweight.class, 80, COMPLETION);
    }

    @Test
    void completionEmbedsThePhysicalStateInPlace() {
        final int base = 40;
        final BytesStore<?, ?> store = Bytes.allocateElasticOnHeap(base + 80).bytesStore();
        final PlanCompletionFlyweight completion = new PlanCompletionFlyweight().wrap(store, base);
        assertEquals(base + 32, completion.physicalState().offset());
        completion.physicalState().pointer(-5 << 8, 7 << 8).buttons(0x4).modifiers(0x9).activeLeaseId(77)
            .permissionEpoch(3).physicalSequence(12).flags(0x2);
        assertEquals(-5 << 8, store.readInt(base + 32));
        assertEquals(7 << 8, store.readInt(base + 36));
        assertEquals(0x4, store.readInt(base + 40));
        assertEquals(0x9, store.readInt(base + 44));
        assertEquals(77, store.readLong(base + 48));
        assertEquals(3, store.readLong(base + 56));
        assertEquals(12, store.readLong(base + 64));
        assertEquals(0x2, store.readInt(base + 72));
    }

    @Test
    void commandSetWritesAllThirtyTwoBytes() {
        final BytesStore<?, ?> store = Bytes.allocateElasticOnHeap(64).bytesStore();
        for (long i = 0; i < 64; i++) {
            store.writeByte(i, (byte) 0xEE);
        }
        new PlanCommandFlyweight().wrap(store, 16).set(PlanOp.TEXT, 0x1234, -2, 5, 0x1122334455667788L, 9);
        assertEquals((byte) 0xEE, store.readByte(15));
        assertEquals(PlanOp.TEXT, store.readUnsignedShort(16));
        assertEquals(0, store.readUnsignedShort(18));
        assertEquals(0x1234, store.readUnsignedShort(20));
        assertEquals(0, store.readUnsignedShort(22));
        assertEquals(-2, store.readInt(24));
        assertEquals(5, store.readInt(28));
        assertEquals(0x1122334455667788L, store.readLong(32));
        assertEquals(9, store.readLong(40));
        assertEquals((byte) 0xEE, store.readByte(48));
    }

    private static void check(final Class<? extends Flyweight<?>> type, final int size, final String rows)
        throws Exception {
        assertEquals(size, type.getField("LENGTH").getInt(null), type.getSimpleName() + ".LENGTH");
        final int base = 24; // a non-zero offset proves wrap() is honoured
        final BytesStore<?, ?> store = Bytes.allocateElasticOnHeap(base + size + 16).bytesStore();
        store.zeroOut(0, store.capacity());
        final Flyweight<?> fw = type.getConstructor().newInstance();
        fw.wrap(store, base);
        assertEquals(size, fw.length());
        final String[] fields = rows.split(";\\s*");
        final long[] expected = new long[fields.length];
        for (int i = 0; i < fields.length; i++) {
            final String[] f = fields[i].trim().split(" ");
            final String where = type.getSimpleName() + "." + f[1];
            assertEquals(Integer.parseInt(f[0]), type.getField(f[1].toUpperCase(Locale.ROOT) + "_OFFSET").getInt(null),
                where);
            expected[i] = distinct(i, f[2]);
            switch (f[2]) {
                case "u64":
                case "u32":
                    type.getMethod(camel(f[1]), long.class).invoke(fw, expected[i]);
                    break;
                case "i32":
                case "u16":
                    type.getMethod(camel(f[1]), int.class).invoke(fw, (int) expected[i]);
                    break;
                default:
                    break;
            }
        }
        for (int i = 0; i < fields.length; i++) {
            final String[] f = fields[i].trim().split(" ");
            final long at = base + Integer.parseInt(f[0]);
            final String where = type.getSimpleName() + "." + f[1];
            switch (f[2]) {
                case "u64":
                    assertEquals(expected[i], store.readLong(at), where);
                    assertEquals(expected[i], type.getMethod(camel(f[1])).invoke(fw), where);
                    break;
                case "u32":
                    assertEquals(expected[i], store.readUnsignedInt(at), where);
                    assertEquals(expected[i], type.getMethod(camel(f[1])).invoke(fw), where);
                    break;
                case "i32":
                    assertEquals((int) expected[i], store.readInt(at), where);
                    assertEquals((int) expected[i], type.getMethod(camel(f[1])).invoke(fw), where);
                    break;
                case "u16":
                    assertEquals((int) expected[i], store.readUnsignedShort(at), where);
                    assertEquals((int) expected[i], type.getMethod(camel(f[1])).invoke(fw), where);
                    break;
                default:
                    break;
            }
        }
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

    /** A value unique to field i that uses every byte of its width (top bit set). */
    private static long distinct(final int i, final String kind) {
        final long v = 0x0102030405060708L * (i + 1) ^ 0x8081828384858687L;
        switch (kind) {
            case "u16":
                return (v & 0x7F0F) | 0x8000 | (i << 4);
            case "u32":
                return (v & 0x7FFF_FF0FL) | 0x8000_0000L | (i << 4);
            case "i32":
                return (int) ((v & 0x7FFF_FF0FL) | 0x8000_0000L | (i << 4));
            default:
                return v | Long.MIN_VALUE;
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
