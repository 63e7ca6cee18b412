package dev.saccade.helper.backend.wayland;

import dev.saccade.helper.GuardedBackend;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.ResultCode;
import java.io.File;
import net.openhft.chronicle.bytes.MappedBytes;

/**
 * A stand-in helper for {@link WaylandBackendTest}: keeps its ledger in a mapped file, presses
 * the key of HID usage 0x04 ('a') through a virtual keyboard and holds it, prints "HELD", and
 * waits to be killed.
 *
 * <p>Arguments: Wayland socket, ledger file, ledger offset.
 */
public final class WaylandHolderMain {
    private WaylandHolderMain() {
    }

    public static void main(final String[] args) throws Exception {
        final long offset = Long.parseLong(args[2]);
        try (MappedBytes file = MappedBytes.singleMappedBytes(new File(args[1]), 64 * 1024)) {
            final HeldInputLedger ledger = new HeldInputLedger().wrap(file, offset).init();
            final GuardedBackend backend = new GuardedBackend(args.length > 3 && "kde".equals(args[3])
                ? WaylandBackend.openKde(args[0]) : WaylandBackend.open(args[0], null), ledger);
            if (backend.key(0x04, true) != ResultCode.PLATFORM_OK || backend.sync() != ResultCode.PLATFORM_OK) {
                throw new IllegalStateException("cannot press a");
            }
            System.out.println("HELD " + ledger);
            System.out.flush();
            System.in.read(); // killed here
        }
    }
}
