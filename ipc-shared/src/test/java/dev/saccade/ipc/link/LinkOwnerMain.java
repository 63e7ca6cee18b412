package dev.saccade.ipc.link;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A test owner in its own JVM: creates the link file (64 KiB plan ring, 16 KiB completion ring)
 * and binds the lifeline, prints "READY pid=.. nonce=..", waits for the helper (pid from the
 * arguments, 0 = any), prints "ATTACHED helper=..", sends {@code plans} random plans through a
 * {@link PlanPump} (each completion checked byte for byte), prints "OWNER_OK plans=.." (or
 * "OWNER_BAD ..."), then stays until stdin closes or it is killed. Arguments: link file,
 * lifeline socket, helper pid, plans.
 */
public final class LinkOwnerMain {
    private LinkOwnerMain() {
    }

    public static void main(final String[] args) throws Exception {
        final Path file = Path.of(args[0]);
        final Path lifelinePath = Path.of(args[1]);
        final long helperPid = Long.parseLong(args[2]);
        final int count = Integer.parseInt(args[3]);
        final byte[] nonce = SessionNonce.generate();
        try (OwnerSide owner = OwnerSide.create(file, 64 << 10, 16 << 10, nonce);
             OwnerLifeline lifeline = OwnerLifeline.bind(lifelinePath, nonce)) {
            LinkHelperMain.println("READY pid=" + ProcessHandle.current().pid() + " nonce=" + SessionNonce.toHex(nonce));
            final long attached = lifeline.awaitHelper(helperPid, Duration.ofSeconds(30));
            LinkHelperMain.println("ATTACHED helper=" + attached + " shmHelperPid=" + owner.helperPid());
            final String failure = new PlanPump(owner, 99, 6_000).run(count, 60_000, lifeline::pollHelperGone);
            LinkHelperMain.println(failure == null ? "OWNER_OK plans=" + count : "OWNER_BAD " + failure);
            while (System.in.read() >= 0) {
                owner.beat(System.nanoTime());
            }
        }
    }
}
