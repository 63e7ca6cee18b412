package dev.saccade.ipc.link;

import static dev.saccade.ipc.link.LinkFileDescriptor.CANCEL_SEQUENCE_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.COMPLETION_RING_CAPACITY_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.CONTROL_BLOCK_LENGTH;
import static dev.saccade.ipc.link.LinkFileDescriptor.CONTROL_BLOCK_LENGTH_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.FILE_LENGTH_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.HELPER_HEARTBEAT_NS_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.HELPER_PARKED_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.HELPER_PID_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.LAYOUT_VERSION_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.LEDGER_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.MAGIC_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.OWNER_HEARTBEAT_NS_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.OWNER_PID_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.PLAN_RING_CAPACITY_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.PLAN_RING_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.SESSION_NONCE_OFFSET;

import dev.saccade.ipc.link.LinkRefusedException.Reason;
import dev.saccade.protocol.plan.ActionPlanFlyweight;
import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import dev.saccade.protocol.plan.PlanValidator;
import java.io.IOException;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input helper's end of the shared-memory link: it opens the file its launcher named,
 * attaches only if the magic, layout version, sizes, session nonce and owner pid are the ones it
 * expects, then polls plans (each validated by {@link PlanValidator}), publishes completions and
 * beats its heartbeat. The held-input ledger region is at {@link #ledgerOffset()}.
 *
 * <p>Threads: {@link #pollPlans}, {@link #tryPublishCompletion} and {@link #beat} belong to the
 * helper's execution thread; they never block and allocate nothing. {@link #close()} only after
 * that thread stopped using this side.
 */
public final class HelperSide implements AutoCloseable {
    /** {@link PlanHandler#onInvalidPlan} verdict for a record that is not a plan. */
    public static final int WRONG_RECORD_TYPE = 100;

    private static final Logger LOG = LoggerFactory.getLogger(HelperSide.class);

    private final LinkMapping mapping;
    private final BytesStore<?, ?> store;
    private final OneToOneByteRing plans;
    private final OneToOneByteRing completions;
    private final long ownerPid;
    private final long helperPid;
    private final PlanValidator validator = new PlanValidator();
    private final ActionPlanFlyweight plan = new ActionPlanFlyweight();
    private final RecordHandler dispatcher = this::onRecord;
    private PlanHandler handler;
    private long invalidPlans;
    private OwnerAliveLock aliveWatch;
    private boolean closed;

    private HelperSide(final LinkMapping mapping, final int planCapacity, final int completionCapacity,
        final long ownerPid, final long helperPid) {
        this.mapping = mapping;
        this.store = mapping.store();
        this.plans = new OneToOneByteRing(store, PLAN_RING_OFFSET, planCapacity);
        this.completions = new OneToOneByteRing(store, LinkFileDescriptor.completionRingOffset(planCapacity),
            completionCapacity);
        this.ownerPid = ownerPid;
        this.helperPid = helperPid;
    }

    /**
     * Opens the link file and attaches to it.
     *
     * @param nonce the session nonce the launcher gave this helper.
     * @param expectedOwnerPid the owner's pid if the launcher told it, else 0 (any owner that
     *     knows the nonce).
     * @throws LinkRefusedException with the failed check: {@code UNSAFE_FILE}, {@code NOT_READY}
     *     (retry shortly), {@code BAD_MAGIC}, {@code BAD_VERSION}, {@code BAD_LAYOUT},
     *     {@code NONCE_MISMATCH}, {@code OWNER_MISMATCH}, {@code ALREADY_ATTACHED}.
     */
    public static HelperSide open(final Path file, final byte[] nonce, final long expectedOwnerPid)
        throws IOException {
        SessionNonce.checkLength(nonce);
        final LinkMapping mapping = LinkMapping.open(file);
        try {
            final BytesStore<?, ?> s = mapping.store();
            final int version = s.readVolatileInt(LAYOUT_VERSION_OFFSET); // acquire: the rest is complete
            if (version == 0) {
                throw new LinkRefusedException(Reason.NOT_READY, file + " is still being created");
            }
            if (s.readLong(MAGIC_OFFSET) != LinkFileDescriptor.MAGIC) {
                throw new LinkRefusedException(Reason.BAD_MAGIC, file + " is not a Saccade link file");
            }
            if (version != LinkFileDescriptor.LAYOUT_VERSION) {
                throw new LinkRefusedException(Reason.BAD_VERSION, file + " has layout version " + version
                    + "; this helper speaks " + LinkFileDescriptor.LAYOUT_VERSION);
            }
            final long planCapacity = s.readUnsignedInt(PLAN_RING_CAPACITY_OFFSET);
            final long completionCapacity = s.readUnsignedInt(COMPLETION_RING_CAPACITY_OFFSET);
            if (s.readInt(CONTROL_BLOCK_LENGTH_OFFSET) != CONTROL_BLOCK_LENGTH
                || !RingDescriptor.isValidCapacity(planCapacity) || !RingDescriptor.isValidCapacity(completionCapacity)
                || LinkFileDescriptor.fileLength((int) planCapacity, (int) completionCapacity) != mapping.length()
                || s.readLong(FILE_LENGTH_OFFSET) != mapping.length()) {
                throw new LinkRefusedException(Reason.BAD_LAYOUT, file + ": ring capacities " + planCapacity + " and "
                    + completionCapacity + " do not describe a file of " + mapping.length() + " bytes");
            }
            final byte[] actual = new byte[SessionNonce.LENGTH];
            for (int i = 0; i < actual.length; i++) {
                actual[i] = s.readByte(SESSION_NONCE_OFFSET + i);
            }
            if (!SessionNonce.matches(nonce, actual)) {
                throw new LinkRefusedException(Reason.NONCE_MISMATCH, file + " belongs to another session");
            }
            final long ownerPid = s.readLong(OWNER_PID_OFFSET);
            if (expectedOwnerPid > 0 && ownerPid != expectedOwnerPid) {
                throw new LinkRefusedException(Reason.OWNER_MISMATCH, file + " was created by pid " + ownerPid
                    + ", not by the expected owner " + expectedOwnerPid);
            }
            final long pid = ProcessHandle.current().pid();
            if (!s.compareAndSwapLong(HELPER_PID_OFFSET, 0, pid)) {
                throw new LinkRefusedException(Reason.ALREADY_ATTACHED, file + " already has helper pid "
                    + s.readVolatileLong(HELPER_PID_OFFSET));
            }
            mapping.preTouch(false);
            s.writeOrderedLong(HELPER_HEARTBEAT_NS_OFFSET, System.nanoTime());
            final HelperSide helper = new HelperSide(mapping, (int) planCapacity, (int) completionCapacity, ownerPid, pid);
            LOG.info("event=link-attach path={} ownerPid={} helperPid={}", file, ownerPid, pid);
            return helper;
        } catch (final IOException | RuntimeException e) {
            try {
                mapping.close();
            } catch (final IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Helper thread: hands up to {@code limit} plan records to {@code handler}, each validated
     * first.
     *
     * @return the number of records consumed, or {@link OneToOneByteRing#CORRUPT} if the plan
     *     ring is corrupt (release everything and stop: the owner must build a new link).
     */
    public int pollPlans(final PlanHandler handler, final int limit) {
        this.handler = handler;
        return plans.read(dispatcher, limit);
    }

    /**
     * Helper thread: copies the 80-byte completion the flyweight views into the completion ring.
     *
     * @return false when the ring has no room now or is corrupt.
     */
    public boolean tryPublishCompletion(final PlanCompletionFlyweight completion) {
        return completions.tryWrite(LinkRecordType.COMPLETION, completion.bytes(), completion.offset(),
            PlanCompletionFlyweight.LENGTH);
    }

    /** Helper thread: stores {@code nowNs} (CLOCK_MONOTONIC) as the helper's heartbeat. */
    public void beat(final long nowNs) {
        store.writeOrderedLong(HELPER_HEARTBEAT_NS_OFFSET, nowNs);
    }

    /**
     * Helper thread, before a long park: announces it (the owner then rings the lifeline's
     * doorbell with its next plan) and says whether the park may start. The store is volatile (a
     * full fence) and the plan ring is read after it, so a plan published before the owner read
     * the word is seen here, and one published after it is rung for: no plan waits out the park.
     *
     * @return false if a plan is already waiting (the park is called off; the word is cleared).
     */
    public boolean beginLongPark(final long parkNumber) {
        store.writeVolatileLong(HELPER_PARKED_OFFSET, parkNumber);
        if (plans.size() != 0) {
            store.writeOrderedLong(HELPER_PARKED_OFFSET, 0);
            return false;
        }
        return true;
    }

    /** Helper thread: awake again, polling the plan ring. */
    public void endLongPark() {
        store.writeOrderedLong(HELPER_PARKED_OFFSET, 0);
    }

    /** The owner's cancel word: a change since a timed operation began ends it (LinkFileDescriptor). */
    public long cancelSequence() {
        return store.readVolatileLong(CANCEL_SEQUENCE_OFFSET);
    }

    /** The owner's last heartbeat (CLOCK_MONOTONIC ns). */
    public long ownerHeartbeatNs() {
        return store.readVolatileLong(OWNER_HEARTBEAT_NS_OFFSET);
    }

    /** The owner pid recorded in the control block (checked against the expected one at open). */
    /**
     * Starts waiting for the owner's alive lock ({@link OwnerAliveLock}): {@code listener} runs
     * once on the waiting thread with {@link OwnerAliveLock#OWNER_DIED} as soon as the owner's
     * holding thread has died (before its lifeline's end of file comes), or with
     * {@link OwnerAliveLock#OWNER_CLOSED} when it closed its side. The wait ends with
     * {@link #close()}, which then leaves the unmap to the waiting thread (within a second).
     *
     * @return whether the owner holds such a lock and the wait began (else the lifeline alone
     *     tells that the owner is gone).
     */
    public boolean watchOwnerAlive(final LifelineListener listener) {
        if (aliveWatch != null || closed) {
            throw new IllegalStateException(closed ? "closed" : "already watched");
        }
        aliveWatch = OwnerAliveLock.watch(mapping, listener);
        return aliveWatch != null;
    }

    public long ownerPid() {
        return ownerPid;
    }

    public long helperPid() {
        return helperPid;
    }

    /** The mapped link file; the ledger is at {@link #ledgerOffset()}. */
    public BytesStore<?, ?> ledgerStore() {
        return store;
    }

    /** Offset of the held-input ledger ({@link LinkFileDescriptor#LEDGER_LENGTH} bytes) in {@link #ledgerStore()}. */
    public long ledgerOffset() {
        return LEDGER_OFFSET;
    }

    /** Why the plan ring is corrupt, or {@link OneToOneByteRing#CORRUPTION_NONE}. */
    public int planRingCorruption() {
        return plans.corruption();
    }

    /** Why the completion ring is corrupt (seen while publishing), or none. */
    public int completionRingCorruption() {
        return completions.corruption();
    }

    /** Plan records that failed validation so far. */
    public long invalidPlans() {
        return invalidPlans;
    }

    /** Padding records skipped in the plan ring (one per wrap). */
    public long planRingWraps() {
        return plans.paddingRecords();
    }

    public Path path() {
        return mapping.path();
    }

    /** Unmaps the file (never unlinks it: the owner created it). */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (aliveWatch != null) {
            // its thread may touch the mutex in the mapping until its wait ends: unmapped then
            aliveWatch.closeThen(this::unmapAfterWait);
            return;
        }
        mapping.close();
        LOG.info("event=link-close side=helper path={}", mapping.path());
    }

    private void unmapAfterWait() {
        try {
            mapping.close();
            LOG.info("event=link-close side=helper path={}", mapping.path());
        } catch (final IOException e) {
            LOG.warn("event=link-close-failed side=helper path={} error={}", mapping.path(), e.toString());
        }
    }

    private void onRecord(final int type, final BytesStore<?, ?> s, final long offset, final int length) {
        final long planId = length >= Long.BYTES ? s.readLong(offset) : 0;
        if (type != LinkRecordType.PLAN) {
            invalidPlans++;
            handler.onInvalidPlan(planId, WRONG_RECORD_TYPE);
            return;
        }
        final int verdict = validator.validatePlan(s, offset, length);
        if (verdict != PlanValidator.VALID) {
            invalidPlans++;
            handler.onInvalidPlan(planId, verdict);
            return;
        }
        handler.onPlan(plan.wrap(s, offset));
    }
}
