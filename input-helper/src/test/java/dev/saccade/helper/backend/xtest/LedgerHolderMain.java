package dev.saccade.helper.backend.xtest;

import dev.saccade.helper.GuardedBackend;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import net.openhft.chronicle.bytes.MappedBytes;

/**
 * A stand-in helper for {@link GuardedBackendTest}: keeps its ledger in a mapped file at a given
 * offset, presses a key, Shift and the left button and types a character the keymap lacks
 * (binding a spare key code), prints "HELD", and waits to be killed.
 *
 * <p>Arguments: display, ledger file, ledger offset.
 */
public final class LedgerHolderMain {
    private LedgerHolderMain() {
    }

    public static void main(final String[] args) throws Exception {
        final String display = args[0];
        final long offset = Long.parseLong(args[2]);
        try (MappedBytes file = MappedBytes.singleMappedBytes(new File(args[1]), 64 * 1024)) {
            final HeldInputLedger ledger = new HeldInputLedger().wrap(file, offset).init();
            final GuardedBackend backend = new GuardedBackend(XTestBackend.open(display), ledger);
            backend.movePointer(5, 5);
            check(backend.modifier(Modifier.SHIFT, true));
            check(backend.key(0x04, true)); // 'a'
            check(backend.button(Button.LEFT, true));
            final byte[] text = "\u00e9".getBytes(StandardCharsets.UTF_8); // é: needs a spare key code
            check(backend.typeText(text, 0, text.length));
            check(backend.sync());
            System.out.println("HELD " + ledger);
            System.out.flush();
            System.in.read(); // killed here
        }
    }

    private static void check(final int rc) {
        if (rc != ResultCode.PLATFORM_OK) {
            throw new IllegalStateException("platform code " + rc);
        }
    }
}
