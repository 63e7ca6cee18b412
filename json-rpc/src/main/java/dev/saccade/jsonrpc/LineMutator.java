package dev.saccade.jsonrpc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The fuzz campaigns' mutator of JSON-RPC lines (MCP's and PCP's input paths; bench/run fuzz and
 * the bounded fuzz tests): from a fixed seed, each {@link #next()} takes one of the seed lines
 * and applies one to four byte-level edits: delete, insert or replace a byte with a JSON token
 * character, cut a span, repeat a span, splice in a malformed UTF-8 sequence (overlong,
 * surrogate, past U+10FFFF, truncated, stray continuation), a byte order mark, a NUL, an escape,
 * deep nesting or a long number. The same seed gives the same lines, so a failure is replayed
 * from the seed it prints. Never a newline: each result is one line.
 */
public final class LineMutator {
    private static final byte[] ALPHABET = "{}[]\",:0123456789.-+eEtruefalsn \\u/\t".getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] SPLICES = {
        {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xC1, (byte) 0xA7}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        {(byte) 0xE2, (byte) 0x82}, {(byte) 0x80}, {(byte) 0xFF}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, {0},
        {(byte) 0xC3, (byte) 0xA9}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80},
        "\\u0000".getBytes(StandardCharsets.US_ASCII), "\\ud800".getBytes(StandardCharsets.US_ASCII),
        "\\u006d".getBytes(StandardCharsets.US_ASCII), "1e400".getBytes(StandardCharsets.US_ASCII),
        "18446744073709551616".getBytes(StandardCharsets.US_ASCII), "null".getBytes(StandardCharsets.US_ASCII),
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[".getBytes(StandardCharsets.US_ASCII),
    };

    private final List<byte[]> seeds;
    private final long seed;
    private final SplittableRandom random;
    private long count;

    public LineMutator(final List<byte[]> seeds, final long seed) {
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("no seed lines");
        }
        this.seeds = seeds;
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    /** The campaign's seed, to print with any failure. */
    public long seed() {
        return seed;
    }

    /** How many lines {@link #next()} made so far. */
    public long count() {
        return count;
    }

    /** The next mutated line, without its newline. */
    public byte[] next() {
        count++;
        byte[] line = seeds.get(random.nextInt(seeds.size())).clone();
        final int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits; e++) {
            line = edit(line);
        }
        for (int i = 0; i < line.length; i++) {
            if (line[i] == '\n') {
                line[i] = ' ';
            }
        }
        return line;
    }

    private byte[] edit(final byte[] line) {
        final int at = line.length == 0 ? 0 : random.nextInt(line.length + 1);
        final ByteArrayOutputStream out = new ByteArrayOutputStream(line.length + 80);
        final int kind = random.nextInt(6);
        switch (kind) {
            case 0: // delete one byte
                out.write(line, 0, at);
                out.write(line, Math.min(line.length, at + 1), Math.max(0, line.length - at - 1));
                break;
            case 1: // insert a token byte
            case 2: // replace with a token byte
                out.write(line, 0, at);
                out.write(ALPHABET[random.nextInt(ALPHABET.length)]);
                final int skip = kind == 2 ? 1 : 0;
                out.write(line, Math.min(line.length, at + skip), Math.max(0, line.length - at - skip));
                break;
            case 3: { // cut a span
                final int end = Math.min(line.length, at + random.nextInt(24));
                out.write(line, 0, at);
                out.write(line, end, line.length - end);
                break;
            }
            case 4: { // repeat a span
                final int end = Math.min(line.length, at + random.nextInt(24));
                out.write(line, 0, end);
                out.write(line, at, end - at);
                out.write(line, end, line.length - end);
                break;
            }
            default: // splice in a hostile sequence
                out.write(line, 0, at);
                out.writeBytes(SPLICES[random.nextInt(SPLICES.length)]);
                out.write(line, at, line.length - at);
                break;
        }
        return out.toByteArray();
    }
}
