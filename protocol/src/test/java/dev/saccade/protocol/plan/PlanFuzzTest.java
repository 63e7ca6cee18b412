package dev.saccade.protocol.plan;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The validator against damaged plans and completions: every truncation and every single-bit
 * flip of each seed, then random mutations from a fixed seed. Each case is viewed through an
 * exact-size {@link Bytes#wrapForRead(byte[])}, which throws on any access outside it, so "no
 * read outside the record" is checked on every case; any exception fails with the case. A plan
 * that passes must then be readable end to end through the flyweights (all its commands and
 * text slices) without leaving the record.
 */
class PlanFuzzTest {
    private static final long SEED = 0x5ACCADE_0005L;
    private static final int RANDOM_CASES = 200_000;

    private final PlanValidator validator = new PlanValidator();
    private final ActionPlanFlyweight plan = new ActionPlanFlyweight();
    private final long[] verdicts = new long[PlanValidator.BAD_PROGRESS + 1];

    @Test
    void theExactViewThrowsOnAnyReadOutsideTheRecord() {
        final Bytes<byte[]> exact = Bytes.wrapForRead(new byte[16]);
        exact.readLong(8);
        org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> exact.readLong(9));
        org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> exact.readByte(16));
        org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> exact.readInt(-1));
    }

    @Test
    @Timeout(120)
    void everyTruncationAndBitFlipGetsAVerdictWithoutReadingOutside() {
        for (final byte[] seed : seeds()) {
            for (int length = 0; length < seed.length; length++) {
                exercise(Arrays.copyOf(seed, length), "truncated to " + length);
            }
            for (int bit = 0; bit < seed.length * 8; bit++) {
                final byte[] flipped = seed.clone();
                flipped[bit >> 3] ^= (byte) (1 << (bit & 7));
                exercise(flipped, "bit " + bit + " flipped");
            }
        }
        assertTrue(verdicts[PlanValidator.VALID] > 0 && verdicts[PlanValidator.BAD_LENGTH] > 0
            && verdicts[PlanValidator.BAD_TOTAL_SIZE] > 0 && verdicts[PlanValidator.BAD_OP] > 0
            && verdicts[PlanValidator.BAD_ARGUMENT] > 0 && verdicts[PlanValidator.BAD_TEXT_ENCODING] > 0,
            Arrays.toString(verdicts));
    }

    @Test
    @Timeout(300)
    void randomMutationsFromAFixedSeedGetAVerdictWithoutReadingOutside() {
        final SplittableRandom random = new SplittableRandom(SEED);
        final List<byte[]> seeds = seeds();
        for (int n = 0; n < RANDOM_CASES; n++) {
            final byte[] seed = seeds.get(random.nextInt(seeds.size()));
            byte[] c = seed.clone();
            final int mutations = 1 + random.nextInt(8);
            for (int m = 0; m < mutations && c.length > 0; m++) {
                switch (random.nextInt(6)) {
                    case 0: // random byte
                        c[random.nextInt(c.length)] = (byte) random.nextInt(256);
                        break;
                    case 1: // an interesting 32-bit value over a field
                        if (c.length >= 4) {
                            final int at = random.nextInt(c.length - 3) & ~3;
                            final int[] values = {0, 1, -1, 0x7FFFFFFF, 0x80000000, 64, 80, c.length, c.length + 1,
                                ActionPlanFlyweight.MAX_COMMANDS, ActionPlanFlyweight.MAX_TEXT, 65, 64, 0xFFFF};
                            BytesStore.wrap(c).writeInt(at, values[random.nextInt(values.length)]);
                        }
                        break;
                    case 2: // truncate
                        c = Arrays.copyOf(c, random.nextInt(c.length + 1));
                        break;
                    case 3: // extend with garbage
                        final int old = c.length;
                        c = Arrays.copyOf(c, old + 1 + random.nextInt(64));
                        for (int i = old; i < c.length; i++) {
                            c[i] = (byte) random.nextInt(256);
                        }
                        break;
                    case 4: // bit flip
                        final int bit = random.nextInt(c.length * 8);
                        c[bit >> 3] ^= (byte) (1 << (bit & 7));
                        break;
                    default: // a command op swapped for another op
                        final int commands = (c.length - ActionPlanFlyweight.LENGTH) / PlanCommandFlyweight.LENGTH;
                        if (commands > 0) {
                            final int at = ActionPlanFlyweight.LENGTH + random.nextInt(commands) * PlanCommandFlyweight.LENGTH;
                            BytesStore.wrap(c).writeShort(at, (short) random.nextInt(PlanOp.LAST + 2));
                        }
                        break;
                }
            }
            exercise(c, "random case " + n);
        }
        assertTrue(verdicts[PlanValidator.VALID] > 0 && verdicts[PlanValidator.BAD_TOTAL_SIZE] > 0,
            Arrays.toString(verdicts));
    }

    private static List<byte[]> seeds() {
        final List<byte[]> seeds = new ArrayList<>(PlanSamples.plans());
        seeds.addAll(PlanSamples.completions());
        return seeds;
    }

    private void exercise(final byte[] record, final String label) {
        final Bytes<byte[]> exact = Bytes.wrapForRead(record);
        try {
            final int verdict = validator.validatePlan(exact, 0, record.length);
            assertTrue(verdict >= PlanValidator.VALID && verdict <= PlanValidator.BAD_PROGRESS, "verdict " + verdict);
            verdicts[verdict]++;
            if (verdict == PlanValidator.VALID) {
                readWholePlan(exact);
            }
            final int completion = validator.validateCompletion(exact, 0, record.length);
            assertTrue(completion >= PlanValidator.VALID && completion <= PlanValidator.BAD_PROGRESS,
                "completion verdict " + completion);
            if (completion == PlanValidator.VALID) {
                final PlanCompletionFlyweight c = new PlanCompletionFlyweight().wrap(exact, 0);
                c.physicalState().physicalSequence();
                c.physicalState().flags();
            }
        } catch (final AssertionError e) {
            throw new AssertionError(label + ": " + e.getMessage() + " record=" + hex(record), e);
        } catch (final Throwable t) {
            fail(label + ": " + t + " record=" + hex(record), t);
        }
    }

    /** Touches every field of a valid plan the way an executor would: must stay inside it. */
    private void readWholePlan(final BytesStore<?, ?> exact) {
        plan.wrap(exact, 0);
        long sum = plan.deadlineNs() + plan.leaseId() + plan.totalSize();
        for (int i = 0; i < plan.commandCount(); i++) {
            final PlanCommandFlyweight c = plan.command(i);
            sum += c.a() + c.b() + c.c() + c.d();
            if (c.op() == PlanOp.TEXT) {
                final long from = plan.textStart() + c.textOffset();
                for (long k = 0; k < c.textLength(); k++) {
                    sum += exact.readByte(from + k);
                }
            }
        }
        if (sum == 42) {
            verdicts[0] += 0; // keeps the reads from being optimised away
        }
    }

    private static String hex(final byte[] record) {
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(record.length, 256); i++) {
            b.append(String.format("%02x", record[i] & 0xFF));
        }
        return b.toString();
    }
}
