package dev.saccade.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fuzz regime of spec §6 cases 11–13 ({@link FuzzCases}) over the validators and the JSON
 * rendering: every truncation and every single-bit flip of each seed, then 200,000 random cases.
 * Every case is copied into an exact-size array viewed through
 * {@link Bytes}, which throws on any access outside it, so "no read outside the frame" is checked
 * on every case, and any exception fails the test with the case that raised it.
 */
class FuzzTest {
    private static final int R = 4096;
    private static final int GRANTED = Capability.POLICY;
    private static final int RANDOM_CASES = 200_000;

    private final RequestValidator requests = new RequestValidator();
    private final CompletionValidator completions = new CompletionValidator();
    private final ErrorCompletions errors = new ErrorCompletions();
    private final CompletionJson json = new CompletionJson();
    private final JsonFactory jsonFactory = new JsonFactory();
    private final BytesStore<?, byte[]> response = BytesStore.wrap(new byte[R]);
    private final ByteArrayOutputStream rendered = new ByteArrayOutputStream();
    private final int[] verdictCounts = new int[4];

    private static final List<byte[]> SEEDS = FuzzCases.seeds();

    @Test
    void requestSeedsAreAcceptedAndCompletionSeedsAreValid() throws Exception {
        for (final byte[] seed : SEEDS) {
            final int kind = Frames.store(seed).readInt(HeaderFlyweight.MESSAGE_KIND_OFFSET);
            if (kind == AgentAbi.HELLO_REQUEST) {
                assertEquals(ResultCode.OK, requests.validateHello(Bytes.wrapForRead(seed), 0, seed.length));
            } else if (kind % 2 == 1) {
                assertEquals(RequestValidator.ACCEPT,
                    requests.validate(Bytes.wrapForRead(seed), 0, seed.length, GRANTED, R, Frames.NOW_NS));
            } else {
                assertEquals(CompletionValidator.VALID,
                    completions.validate(Bytes.wrapForRead(seed), 0, seed.length, 0), AgentAbi.kindName(kind));
                render(seed);
            }
        }
    }

    @Test
    @Timeout(120)
    void everyTruncationAndBitFlipOfEachSeedGetsAVerdictWithoutReadingOutsideIt() {
        FuzzCases.deterministic(SEEDS, this::exercise);
        assertTrue(verdictCounts[0] > 0 && verdictCounts[1] > 0 && verdictCounts[2] > 0, Arrays.toString(verdictCounts));
    }

    @Test
    @Timeout(300)
    void twoHundredThousandRandomMutationsGetAVerdictWithoutReadingOutsideTheFrame() {
        FuzzCases.random(SEEDS, RANDOM_CASES, this::exercise);
        assertTrue(verdictCounts[0] > 0 && verdictCounts[1] > 0 && verdictCounts[2] > 0, Arrays.toString(verdictCounts));
    }

    /**
     * One case through every reader: the unauthenticated Hello check, the authenticated request
     * validator (whose typed verdicts are written as error completions and must validate), and
     * the client's completion validator and renderer.
     */
    private void exercise(final byte[] frame, final String label) {
        final BytesStore<?, ?> exact = Bytes.wrapForRead(frame);
        try {
            final int hello = requests.validateHello(exact, 0, frame.length);
            assertTrue(hello == ResultCode.OK || hello == ResultCode.INVALID_MESSAGE
                || hello == ResultCode.CAPABILITY_DENIED, "hello verdict " + hello);

            final int verdict = requests.validate(exact, 0, frame.length, GRANTED, R, Frames.NOW_NS);
            if (verdict == RequestValidator.REJECT) {
                verdictCounts[0]++;
            } else if (verdict == RequestValidator.ACCEPT) {
                verdictCounts[1]++;
                assertTrue(frame.length >= ObserveRequestFlyweight.LENGTH, "accepted a frame shorter than any request");
            } else {
                verdictCounts[2]++;
                assertTrue(verdict < 0 && verdict >= ResultCode.CAPACITY, "typed verdict " + verdict);
                final int written = errors.writeForRequest(response, 0, exact, 0, verdict, GRANTED);
                assertTrue(written <= R, "error completion larger than R");
                final byte[] out = Arrays.copyOf(response.underlyingObject(), written);
                assertEquals(CompletionValidator.VALID, completions.validate(Bytes.wrapForRead(out), 0, written, 0),
                    "error completion is not self-consistent");
                assertEquals(verdict, Bytes.wrapForRead(out).readInt(24), "error completion carries the verdict");
            }

            if (completions.validate(exact, 0, frame.length, 0) == CompletionValidator.VALID) {
                verdictCounts[3]++;
                render(frame);
            }
        } catch (final AssertionError e) {
            throw new AssertionError(label + ": " + e.getMessage() + " frame=" + hex(frame), e);
        } catch (final Throwable t) {
            fail(label + ": " + t + " frame=" + hex(frame), t);
        }
    }

    /** Renders a valid completion and parses the output back: it must be well-formed JSON. */
    private void render(final byte[] frame) throws Exception {
        rendered.reset();
        try (JsonGenerator g = jsonFactory.createGenerator(rendered)) {
            json.write(g, Bytes.wrapForRead(frame), 0);
        }
        try (JsonParser p = jsonFactory.createParser(rendered.toByteArray())) {
            while (p.nextToken() != null) {
                // walk every token: a malformed document throws here
            }
        }
    }

    private static String hex(final byte[] frame) {
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(frame.length, 512); i++) {
            b.append(String.format("%02x", frame[i] & 0xFF));
        }
        return b.toString();
    }
}
