package dev.saccade.ipc.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ring's contract on one thread over plain memory: order, room, wrap, zeroing, validation. */
class OneToOneByteRingTest {
    private static final int CAPACITY = 4_096;
    private static final int BASE = 64; // a non-zero region offset proves offsets are honoured

    private final BytesStore<?, byte[]> store = BytesStore.wrap(new byte[BASE + CAPACITY + RingDescriptor.TRAILER_LENGTH + 64]);
    private final OneToOneByteRing producer = new OneToOneByteRing(store, BASE, CAPACITY);
    private final OneToOneByteRing consumer = new OneToOneByteRing(store, BASE, CAPACITY);
    private final List<byte[]> received = new ArrayList<>();
    private final List<Integer> types = new ArrayList<>();
    private final RecordHandler collect = (type, s, offset, length) -> {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = s.readByte(offset + i);
        }
        received.add(b);
        types.add(type);
    };

    private static byte[] payload(final int length, final int seed) {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    private boolean write(final int type, final byte[] payload) {
        return producer.tryWrite(type, BytesStore.wrap(payload), 0, payload.length);
    }

    @Test
    void layoutConstantsAreTheDocumentedOnes() {
        assertEquals(0, RingDescriptor.TAIL_POSITION_OFFSET);
        assertEquals(128, RingDescriptor.HEAD_POSITION_OFFSET);
        assertEquals(256, RingDescriptor.TRAILER_LENGTH);
        assertEquals(0, RingDescriptor.LENGTH_OFFSET);
        assertEquals(4, RingDescriptor.TYPE_OFFSET);
        assertEquals(8, RingDescriptor.HEADER_LENGTH);
        assertEquals(-1, RingDescriptor.PADDING_TYPE);
        assertEquals(512, RingDescriptor.maxPayloadLength(4_096));
        assertFalse(RingDescriptor.isValidCapacity(4_095));
        assertFalse(RingDescriptor.isValidCapacity(6_144));
        assertFalse(RingDescriptor.isValidCapacity(2_048));
        assertTrue(RingDescriptor.isValidCapacity(1 << 21));
    }

    @Test
    void shouldHandOutRecordsInOrderWithTheirTypesAndPayloads() {
        assertTrue(write(1, payload(5, 1)));
        assertTrue(write(2, payload(0, 2)));
        assertTrue(write(7, payload(512, 3)));
        assertEquals(3, consumer.read(collect, 10));
        assertEquals(List.of(1, 2, 7), types);
        assertArrayEquals(payload(5, 1), received.get(0));
        assertEquals(0, received.get(1).length);
        assertArrayEquals(payload(512, 3), received.get(2));
        assertEquals(0, consumer.read(collect, 10));
    }

    @Test
    void shouldStoreTheLengthAfterThePayloadAndTheTypeAndAlignRecords() {
        assertTrue(write(3, payload(13, 1)));
        assertEquals(13 + 8, store.readInt(BASE));
        assertEquals(3, store.readInt(BASE + 4));
        assertEquals(24, producer.tailPosition(), "13 + 8 aligned to 8");
        assertTrue(write(3, payload(1, 2)));
        assertEquals(9, store.readInt(BASE + 24), "next record at the aligned position");
    }

    @Test
    void shouldHonourTheLimit() {
        for (int i = 0; i < 5; i++) {
            assertTrue(write(1, payload(8, i)));
        }
        assertEquals(2, consumer.read(collect, 2));
        assertEquals(3, consumer.read(collect, 100));
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(payload(8, i), received.get(i));
        }
    }

    @Test
    void shouldReturnFalseWhenFullAndAcceptAgainAfterTheConsumerDrains() {
        // 56-byte payload + 8 header = 64 bytes: exactly 64 records fill 4,096.
        int written = 0;
        while (write(1, payload(56, written))) {
            written++;
        }
        assertEquals(CAPACITY / 64, written);
        assertFalse(write(1, payload(0, 0)), "not even an empty record fits");
        assertEquals(CAPACITY, producer.size());
        assertEquals(10, consumer.read(collect, 10));
        for (int i = 0; i < 10; i++) {
            assertTrue(write(1, payload(56, 1000 + i)), "room freed by the consumer");
        }
        assertFalse(write(1, payload(56, 0)));
        assertEquals(54, consumer.read(collect, 1_000), "a read stops at the end of the data region");
        assertEquals(10, consumer.read(collect, 1_000), "the next one continues at its start");
        assertArrayEquals(payload(56, 10), received.get(10));
        assertArrayEquals(payload(56, 1009), received.get(73));
    }

    @Test
    void shouldPadAtTheWrapAndSkipThePaddingOnRead() {
        // Advance to 64 bytes before the end, then write a record of 100: it cannot fit there.
        for (int i = 0; i < (CAPACITY - 64) / 64; i++) {
            assertTrue(write(1, payload(56, i)));
        }
        assertEquals((CAPACITY - 64) / 64, consumer.read(collect, 1_000));
        received.clear();
        types.clear();
        assertTrue(write(5, payload(100, 42)));
        assertEquals(RingDescriptor.PADDING_TYPE, store.readInt(BASE + CAPACITY - 64 + 4), "padding record");
        assertEquals(64, store.readInt(BASE + CAPACITY - 64));
        assertEquals(108, store.readInt(BASE), "the record starts over at index 0");
        assertEquals(CAPACITY + 112, producer.tailPosition(), "tail counts the padding");
        assertEquals(0, consumer.read(collect, 10), "the first read consumes the padding up to the end");
        assertEquals(1, consumer.paddingRecords());
        assertEquals(1, consumer.read(collect, 10));
        assertArrayEquals(payload(100, 42), received.get(0));
        assertEquals(5, types.get(0));
    }

    @Test
    void shouldNotWrapWhenTheSpaceBeforeTheHeadIsStillInUse() {
        for (int i = 0; i < (CAPACITY - 64) / 64; i++) {
            assertTrue(write(1, payload(56, i)));
        }
        assertEquals(1, consumer.read(collect, 1)); // frees only 64 bytes at the start
        assertFalse(write(1, payload(100, 0)), "64 free at the end + 64 at the start < 64 padding + 112");
        assertTrue(write(1, payload(56, 7)), "an exact fit at the end still goes");
    }

    @Test
    void shouldZeroWhatItConsumed() {
        assertTrue(write(1, payload(300, 1)));
        assertTrue(write(1, payload(20, 2)));
        assertEquals(2, consumer.read(collect, 10));
        for (int i = 0; i < CAPACITY; i++) {
            assertEquals(0, store.readByte(BASE + i), "byte " + i);
        }
        assertEquals(producer.tailPosition(), consumer.headPosition());
    }

    @Test
    void shouldRefuseProgrammingErrorsAtWrite() {
        assertThrows(IllegalArgumentException.class, () -> write(0, payload(1, 1)));
        assertThrows(IllegalArgumentException.class, () -> write(-1, payload(1, 1)));
        assertThrows(IllegalArgumentException.class, () -> write(1, payload(513, 1)));
        assertThrows(IllegalArgumentException.class, () -> new OneToOneByteRing(store, BASE, 3_000));
        assertThrows(IllegalArgumentException.class, () -> new OneToOneByteRing(store, BASE + 4, CAPACITY));
        assertThrows(IllegalArgumentException.class, () -> new OneToOneByteRing(store, BASE + 128, CAPACITY));
    }

    @Test
    void shouldCountAHandlerExceptionsRecordAsConsumedAndGoOn() {
        assertTrue(write(1, payload(8, 1)));
        assertTrue(write(1, payload(8, 2)));
        final RuntimeException boom = new IllegalStateException("handler failed");
        final RuntimeException thrown = assertThrows(RuntimeException.class, () -> consumer.read((t, s, o, l) -> {
            throw boom;
        }, 10));
        assertEquals(boom, thrown);
        assertEquals(1, consumer.read(collect, 10));
        assertArrayEquals(payload(8, 2), received.get(0));
    }

    @Test
    void shouldReportCorruptHeadersWithoutThrowingOrCallingTheHandler() {
        final int[][] corruptions = {
            // length, type, expected reason; the tail is set past the record unless noted
            {4, 1, OneToOneByteRing.CORRUPTION_LENGTH},
            {-8, 1, OneToOneByteRing.CORRUPTION_LENGTH},
            {CAPACITY + 8, 1, OneToOneByteRing.CORRUPTION_LENGTH},
            {64, 0, OneToOneByteRing.CORRUPTION_TYPE},
            {64, -7, OneToOneByteRing.CORRUPTION_TYPE},
            {1024, 1, OneToOneByteRing.CORRUPTION_TOO_LONG},
        };
        for (final int[] c : corruptions) {
            final BytesStore<?, byte[]> s = BytesStore.wrap(new byte[CAPACITY + RingDescriptor.TRAILER_LENGTH]);
            s.writeInt(RingDescriptor.LENGTH_OFFSET, c[0]);
            s.writeInt(RingDescriptor.TYPE_OFFSET, c[1]);
            s.writeLong(CAPACITY + RingDescriptor.TAIL_POSITION_OFFSET, CAPACITY);
            final OneToOneByteRing ring = new OneToOneByteRing(s, 0, CAPACITY);
            final int[] calls = {0};
            assertEquals(OneToOneByteRing.CORRUPT, ring.read((t, st, o, l) -> calls[0]++, 10), "length " + c[0]);
            assertEquals(c[2], ring.corruption(), OneToOneByteRing.corruptionReason(ring.corruption()));
            assertEquals(0, calls[0]);
            assertEquals(OneToOneByteRing.CORRUPT, ring.read((t, st, o, l) -> calls[0]++, 10), "sticky");
        }
    }

    @Test
    void shouldReportARecordThatEndsPastThePublishedTail() {
        assertTrue(write(1, payload(8, 1)));
        store.writeInt(BASE + 16, 64); // a length where nothing was claimed
        store.writeInt(BASE + 20, 1);
        final int[] calls = {0};
        assertEquals(OneToOneByteRing.CORRUPT, consumer.read((t, s, o, l) -> calls[0]++, 10));
        assertEquals(1, calls[0], "the good record before it was still handed out");
        assertEquals(OneToOneByteRing.CORRUPTION_PAST_TAIL, consumer.corruption());
    }

    @Test
    void shouldReportATailMoreThanACapacityAheadOfTheHead() {
        store.writeInt(BASE, 16);
        store.writeInt(BASE + 4, 1);
        store.writeLong(BASE + CAPACITY + RingDescriptor.TAIL_POSITION_OFFSET, 3L * CAPACITY);
        assertEquals(OneToOneByteRing.CORRUPT, consumer.read(collect, 10));
        assertEquals(OneToOneByteRing.CORRUPTION_TAIL, consumer.corruption());
    }

    @Test
    void producerShouldReportAHeadOutsideItsRange() {
        for (int i = 0; i < 64; i++) {
            assertTrue(write(1, payload(56, i)));
        }
        store.writeLong(BASE + CAPACITY + RingDescriptor.HEAD_POSITION_OFFSET, 10L * CAPACITY);
        assertFalse(write(1, payload(8, 0)));
        assertEquals(OneToOneByteRing.CORRUPTION_HEAD, producer.corruption());
        assertFalse(write(1, payload(8, 0)), "sticky");
    }

    @Test
    @Timeout(60)
    void randomSizesSurviveManyWrapsInterleaved() {
        final SplittableRandom random = new SplittableRandom(17);
        int next = 0;
        int expect = 0;
        final AtomicReference<String> failure = new AtomicReference<>();
        final int[] expected = {0};
        final RecordHandler check = (type, s, offset, length) -> {
            final byte[] want = payload(lengthOf(expected[0]), expected[0]);
            if (type != 1 + expected[0] % 5 || length != want.length) {
                failure.compareAndSet(null, "record " + expected[0] + ": type " + type + " length " + length);
            }
            for (int i = 0; i < length; i++) {
                if (s.readByte(offset + i) != want[i]) {
                    failure.compareAndSet(null, "record " + expected[0] + " byte " + i);
                    break;
                }
            }
            expected[0]++;
        };
        while (expected[0] < 200_000) {
            if (random.nextInt(3) > 0) {
                if (producer.tryWrite(1 + next % 5, BytesStore.wrap(payload(lengthOf(next), next)), 0, lengthOf(next))) {
                    next++;
                }
            } else {
                final int n = consumer.read(check, 1 + random.nextInt(8));
                assertTrue(n >= 0, "never corrupt");
                expect += n;
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
        }
        assertEquals(expect, expected[0]);
        assertTrue(consumer.paddingRecords() > 100, "wrapped " + consumer.paddingRecords() + " times");
    }

    private static int lengthOf(final int n) {
        return (n * 7919) % 513;
    }
}
