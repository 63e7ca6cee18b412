package dev.saccade.atspi;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A fuzz campaign against the decoder of replies from accessible applications, which any local
 * program can be: valid messages are mutated (bytes flipped, lengths and signatures rewritten)
 * and each result must decode or fail with {@link DBusWire.WireException}, quickly.
 *
 * <p>Replayable: {@code -Dsaccade.fuzz.seeds=1,2,3} picks the seeds (a failure names its seed),
 * {@code -Dsaccade.fuzz.iterations=N} the mutations per seed. The defaults are the fixed seeds CI
 * runs, a few seconds in all.
 */
class DBusWireFuzzTest {
    private static final String SEEDS = System.getProperty("saccade.fuzz.seeds", "1,7,42,20261207");
    private static final int ITERATIONS = Integer.getInteger("saccade.fuzz.iterations", 20_000);
    private static final String[] SIGNATURES = {"a(so)", "a{ss}", "(iiii)a{ss}", "aai", "ay", "a(so)(so)au",
        "ax", "b(dt)", "s", "aay", "a(y)"};

    @Test
    void mutatedRepliesDecodeOrFailTyped() {
        final List<byte[]> corpus = corpus();
        for (final String text : SEEDS.split(",")) {
            final long seed = Long.parseLong(text.trim());
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> campaign(seed, corpus),
                "seed " + seed + " did not finish: replay with -Dsaccade.fuzz.seeds=" + seed);
        }
    }

    @Test
    void anArrayOfEmptyStructsIsRefusedAtOnce() {
        // Two one-byte structs, then the same bytes read as an array of empty structs and a byte.
        final byte[] message = reply("a(y)", new Object[] {List.of((Object) new Object[] {1}, new Object[] {2})});
        final byte[] hostile = withSignature(message, "a(y)", "a()y");
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThrows(DBusWire.WireException.class,
            () -> decode(hostile)));
    }

    @Test
    void aMessageAboveTheCeilingIsRefusedBeforeItIsRead() {
        final ByteBuffer header = ByteBuffer.wrap(reply("s", new Object[] {"x"})).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(4, DBusWire.MAX_MESSAGE);
        assertThrows(DBusWire.WireException.class, () -> DBusWire.messageLength(header));
    }

    private static void campaign(final long seed, final List<byte[]> corpus) {
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < ITERATIONS; i++) {
            final byte[] message = mutate(corpus.get(random.nextInt(corpus.size())).clone(), random);
            try {
                decode(message);
            } catch (final DBusWire.WireException expected) {
                // typed refusal: what a malformed reply must get
            } catch (final RuntimeException | Error e) {
                fail("seed " + seed + " iteration " + i + ": " + e + " (replay with -Dsaccade.fuzz.seeds=" + seed
                    + ")", e);
            }
        }
    }

    private static void decode(final byte[] message) {
        final ByteBuffer in = ByteBuffer.wrap(message);
        final int length = DBusWire.messageLength(in);
        if (length >= 0 && length <= in.remaining()) {
            DBusWire.decode(in, length);
        }
    }

    private static byte[] mutate(final byte[] message, final SplittableRandom random) {
        final int edits = 1 + random.nextInt(4);
        byte[] m = message;
        for (int e = 0; e < edits; e++) {
            switch (random.nextInt(5)) {
                case 0 -> m[random.nextInt(m.length)] = (byte) random.nextInt(256);
                case 1 -> m[random.nextInt(m.length)] ^= (byte) (1 << random.nextInt(8));
                case 2 -> {
                    // a length-like word: small, negative, huge or off by a little
                    final int at = random.nextInt(Math.max(1, m.length - 3)) & ~3;
                    final int[] words = {0, -1, 1, 4, 8, 4096, Integer.MAX_VALUE, 1 << 26, random.nextInt()};
                    ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(at, words[random.nextInt(words.length)]);
                }
                case 3 -> {
                    final String from = signatureOf(m);
                    if (from != null && !from.isEmpty()) {
                        final String[] swaps = {"a()", "a(a())", "aaaaaaaa(", "a{", "(", "a", "aa{sv", "a{vs}", "((()))", "ai"};
                        m = withSignature(m, from, swaps[random.nextInt(swaps.length)]);
                    }
                }
                default -> {
                    final int cut = random.nextInt(m.length + 1);
                    final byte[] shorter = new byte[Math.max(DBusWire.FIXED_HEADER, cut)];
                    System.arraycopy(m, 0, shorter, 0, Math.min(m.length, shorter.length));
                    m = shorter;
                }
            }
        }
        return m;
    }

    private static List<byte[]> corpus() {
        final List<byte[]> corpus = new ArrayList<>();
        final Object ref = new Object[] {":1.5", "/org/a11y/atspi/accessible/1"};
        corpus.add(reply("a(so)", new Object[] {List.of(ref, ref, ref)}));
        corpus.add(reply("a{ss}", new Object[] {Map.of("toolkit", "gtk", "version", "3.24")}));
        corpus.add(reply("(iiii)a{ss}", new Object[] {new Object[] {1, 2, 3, 4}, Map.of("a", "b")}));
        corpus.add(reply("aai", new Object[] {List.of(new int[] {1, 2}, new int[] {3})}));
        corpus.add(reply("ay", new Object[] {new int[] {1, 2, 3, 4, 5}}));
        corpus.add(reply("a(so)(so)au", new Object[] {List.of(ref), ref, new int[] {7, 8}}));
        corpus.add(reply("ax", new Object[] {List.of(1L, 2L)}));
        corpus.add(reply("s", new Object[] {"a name"}));
        corpus.add(reply("aay", new Object[] {List.of(new int[] {1}, new int[] {2, 3})}));
        corpus.add(reply("a(y)", new Object[] {List.of((Object) new Object[] {1}, new Object[] {2})}));
        corpus.add(reply("b(dt)", new Object[] {Boolean.TRUE, new Object[] {1.5, 9L}}));
        return corpus;
    }

    private static byte[] reply(final String signature, final Object[] args) {
        final ByteBuffer out = DBusWire.appendCall(ByteBuffer.allocate(64), 3, ":1.9", "/p", "i.f", "M", signature, args);
        out.put(1, DBusWire.METHOD_RETURN);
        final byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return bytes;
    }

    /** The message with its SIGNATURE header field's text replaced (same length only, else unchanged). */
    private static byte[] withSignature(final byte[] message, final String from, final String to) {
        final String text = new String(message, StandardCharsets.ISO_8859_1);
        final int at = text.indexOf((char) from.length() + from + '\0');
        if (at < 0) {
            return message;
        }
        final byte[] out = message.clone();
        final byte[] replacement = to.getBytes(StandardCharsets.ISO_8859_1);
        final int n = Math.min(from.length(), replacement.length);
        for (int i = 0; i < from.length(); i++) {
            out[at + 1 + i] = i < n ? replacement[i] : (byte) ')';
        }
        return out;
    }

    private static String signatureOf(final byte[] message) {
        final String text = new String(message, StandardCharsets.ISO_8859_1);
        for (final String s : SIGNATURES) {
            if (text.contains((char) s.length() + s + '\0')) {
                return s;
            }
        }
        return null;
    }
}
