package dev.saccade.ipc.link;

/**
 * Layout of the shared-memory file between the owner and the input helper,
 * {@code $SHM/saccade-input-v1-<uid>-<owner pid>} (docs/architecture.md, "Processes"), in the manner of Aeron's
 * {@code CncFileDescriptor}. All integers little-endian.
 * <pre>
 *   +------------------------------------------------------------+ 0
 *   | control block (one page, 4096 bytes)                       |
 *   |   0    magic u64 "SACCINP1"          written once by owner  |
 *   |   8    layout_version u32            written LAST (ordered): |
 *   |                                     0 = not ready          |
 *   |  12    control_block_length u32      4096                   |
 *   |  16    session_nonce [16]                                   |
 *   |  32    owner_pid u64                                        |
 *   |  40    plan_ring_capacity u32                               |
 *   |  44    completion_ring_capacity u32                         |
 *   |  48    file_length u64                                      |
 *   |  56    created_ns u64 (owner's CLOCK_MONOTONIC)             |
 *   |  64    reserved to 128                                      |
 *   | 128    helper_pid u64      helper, once, by CAS from 0      |
 *   | 256    owner_heartbeat_ns u64    owner only                 |
 *   | 384    helper_heartbeat_ns u64   helper only                |
 *   | 512    held-input ledger, 512 bytes: helper only (the       |
 *   |        owner may seed it before a helper attaches);         |
 *   |        HeldInputLedger's layout                             |
 *   | 1024   helper_parked u64   helper only: 0 awake, else the   |
 *   |        number of the long park it is in (ring the doorbell) |
 *   | 1152   owner's alive lock (64) and its held word           |
 *   | 1408   cancel_sequence u64   owner only: + 1 to end the     |
 *   |        timed operation the helper runs now                  |
 *   | 1536   reserved to 4096                                     |
 *   +------------------------------------------------------------+ 4096
 *   | plan ring, owner -> helper: data (plan_ring_capacity)      |
 *   |   + trailer (256): tail, head   (RingDescriptor)           |
 *   +------------------------------------------------------------+
 *   | completion ring, helper -> owner: data + trailer           |
 *   +------------------------------------------------------------+ file_length (page multiple)
 * </pre>
 * Every field another process writes sits on its own pair of 64-byte cache lines (128-byte
 * spacing), so the owner's heartbeat stores never invalidate the line the helper writes.
 * Heartbeats are CLOCK_MONOTONIC nanoseconds ({@code System.nanoTime()} on Linux, one clock for
 * every process of the machine).
 */
public final class LinkFileDescriptor {
    /** "SACCINP1" as a little-endian u64. */
    public static final long MAGIC = 0x3150_4E49_4343_4153L;
    public static final int LAYOUT_VERSION = 1;

    public static final int CACHE_LINE_PAIR = 128;
    public static final int MAGIC_OFFSET = 0;
    public static final int LAYOUT_VERSION_OFFSET = MAGIC_OFFSET + Long.BYTES;
    public static final int CONTROL_BLOCK_LENGTH_OFFSET = LAYOUT_VERSION_OFFSET + Integer.BYTES;
    public static final int SESSION_NONCE_OFFSET = CONTROL_BLOCK_LENGTH_OFFSET + Integer.BYTES;
    public static final int OWNER_PID_OFFSET = SESSION_NONCE_OFFSET + SessionNonce.LENGTH;
    public static final int PLAN_RING_CAPACITY_OFFSET = OWNER_PID_OFFSET + Long.BYTES;
    public static final int COMPLETION_RING_CAPACITY_OFFSET = PLAN_RING_CAPACITY_OFFSET + Integer.BYTES;
    public static final int FILE_LENGTH_OFFSET = COMPLETION_RING_CAPACITY_OFFSET + Integer.BYTES;
    public static final int CREATED_NS_OFFSET = FILE_LENGTH_OFFSET + Long.BYTES;
    public static final int HELPER_PID_OFFSET = CACHE_LINE_PAIR;
    public static final int OWNER_HEARTBEAT_NS_OFFSET = HELPER_PID_OFFSET + CACHE_LINE_PAIR;
    public static final int HELPER_HEARTBEAT_NS_OFFSET = OWNER_HEARTBEAT_NS_OFFSET + CACHE_LINE_PAIR;
    /** Where the helper's held-input ledger lives; {@code HeldInputLedger} wraps it here. */
    public static final int LEDGER_OFFSET = HELPER_HEARTBEAT_NS_OFFSET + CACHE_LINE_PAIR;
    public static final int LEDGER_LENGTH = 512;
    /**
     * The helper's long-park word: 0 while it polls the plan ring, else the sequence number of
     * the long park it is in, so the owner rings the lifeline's doorbell once per park. Zero in
     * links of helpers that never park long (older ones): their owners never ring.
     */
    public static final int HELPER_PARKED_OFFSET = LEDGER_OFFSET + LEDGER_LENGTH;
    /**
     * The owner's alive lock ({@link OwnerAliveLock}): a robust, process-shared pthread mutex
     * (40 bytes on glibc) that one owner thread holds for the link's life.
     */
    public static final int ALIVE_LOCK_OFFSET = HELPER_PARKED_OFFSET + CACHE_LINE_PAIR;
    public static final int ALIVE_LOCK_LENGTH = 64;
    /**
     * 1 once the owner thread holds {@link #ALIVE_LOCK_OFFSET}, written after the lock: a helper
     * that finds 0 (an owner without the lock) watches only the lifeline, since a zeroed mutex is
     * an unlocked one and taking it would say nothing about the owner.
     */
    public static final int ALIVE_LOCK_HELD_OFFSET = ALIVE_LOCK_OFFSET + ALIVE_LOCK_LENGTH;
    /**
     * The owner's cancel word: it adds 1 (ABORT, a disconnect, any release the owner asks for) and
     * the helper ends the timed operation in hand when the word differs from what it was when the
     * operation began, without waiting for the release plan queued behind it (agent-abi §5.15).
     */
    public static final int CANCEL_SEQUENCE_OFFSET = ALIVE_LOCK_HELD_OFFSET + CACHE_LINE_PAIR;
    public static final int CONTROL_BLOCK_LENGTH = 4_096;
    public static final int PLAN_RING_OFFSET = CONTROL_BLOCK_LENGTH;

    /** Default plan ring: 2 MiB, so the largest plan (196,672 bytes) is within an eighth. */
    public static final int DEFAULT_PLAN_RING_CAPACITY = 2 << 20;
    /** Default completion ring: 64 KiB, about 700 completions of 88 bytes with their headers. */
    public static final int DEFAULT_COMPLETION_RING_CAPACITY = 64 << 10;
    /** File lengths are rounded up to this, the page size of every platform we run on. */
    public static final int PAGE_SIZE = 4_096;

    static {
        if (CANCEL_SEQUENCE_OFFSET + CACHE_LINE_PAIR > CONTROL_BLOCK_LENGTH || CREATED_NS_OFFSET + Long.BYTES > HELPER_PID_OFFSET) {
            throw new ExceptionInInitializerError("control block fields overlap");
        }
    }

    private LinkFileDescriptor() {
    }

    /** Offset of the completion ring's data region. */
    public static long completionRingOffset(final int planRingCapacity) {
        return PLAN_RING_OFFSET + RingDescriptor.regionLength(planRingCapacity);
    }

    /** Length of the whole file for these capacities, a multiple of the page size. */
    public static long fileLength(final int planRingCapacity, final int completionRingCapacity) {
        final long end = completionRingOffset(planRingCapacity) + RingDescriptor.regionLength(completionRingCapacity);
        return (end + PAGE_SIZE - 1) & -PAGE_SIZE;
    }
}
