package dev.saccade.pcp;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Unguessable hex ids for the session, subscriptions and confirmations: a caller must not be
 * able to name another caller's confirmation or subscription. Any thread may ask at once
 * ({@link SecureRandom} is thread-safe); one instance serves one PCP Core.
 */
final class RandomIds {
    private final SecureRandom random = new SecureRandom();

    /** {@code bytes} random bytes as lower-case hex. */
    String hex(final int bytes) {
        final byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** {@code count} random decimal digits: a code a user types. */
    String digits(final int count) {
        final StringBuilder s = new StringBuilder(count);
        for (int i = 0; i < count; i++) {
            s.append((char) ('0' + random.nextInt(10)));
        }
        return s.toString();
    }
}
