package dev.saccade.ipc.link;

import static dev.saccade.ipc.link.LinkFileDescriptor.CANCEL_SEQUENCE_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.COMPLETION_RING_CAPACITY_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.CONTROL_BLOCK_LENGTH;
import static dev.saccade.ipc.link.LinkFileDescriptor.CONTROL_BLOCK_LENGTH_OFFSET;
import static dev.saccade.ipc.link.LinkFileDescriptor.CREATED_NS_OFFSET;
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

import dev.saccade.protocol.plan.ActionPlanFlyweight;
import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import dev.saccade.protocol.plan.PlanValidator;
import java.io.IOException;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner's end of the shared-memory link to the input helper: it creates the link file
 * ({@link LinkFileDescriptor}), writes the session nonce and its pid, publishes plans into the
 * plan ring and drains completions from the completion ring, beats its heartbeat, and reads the
 * helper's heartbeat, pid and held-input ledger.
 *
 * <p>One link file per helper incarnation: after a helper is lost the owner closes this side
 * (which unlinks the file) and creates a new one with a new nonce for the replacement, so a dead
 * helper's half-written record can never wedge the new helper's rings. Before closing, read the
 * lost helper's ledger ({@link #ledgerStore()}) to release what it held, and seed the new
 * file's ledger with it so the replacement releases it too.
 *
 * <p>Threads: {@link #tryPublishPlan}, {@link #pollCompletions} and {@link #beat} belong to the
 * owner thread; they never block and allocate nothing. The readers of the helper's fields may be
 * called from any thread. {@link #close()} only after the owner thread stopped using this side.
 */
public final class OwnerSide implements AutoCloseable {
    /** {@link CompletionHandler#onInvalidCompletion} verdict for a record that is not a completion. */
    public static final int WRONG_RECORD_TYPE = 100;

    private static final Logger LOG = LoggerFactory.getLogger(OwnerSide.class);

    private final LinkMapping mapping;
    /** Held from creation to {@link #close()}; null where the platform has no robust mutex. */
    private final OwnerAliveLock aliveLock;
    private final BytesStore<?, ?> store;
    private final OneToOneByteRing plans;
    private final OneToOneByteRing completions;
    private final byte[] nonce;
    private final long ownerPid;
    private final PlanValidator validator = new PlanValidator();
    private final PlanCompletionFlyweight completion = new PlanCompletionFlyweight();
    private final RecordHandler dispatcher = this::onRecord;
    private CompletionHandler handler;
    private long invalidCompletions;
    private boolean closed;

    private OwnerSide(final LinkMapping mapping, final OwnerAliveLock aliveLock, final int planCapacity,
        final int completionCapacity, final byte[] nonce, final long ownerPid) {
        this.mapping = mapping;
        this.aliveLock = aliveLock;
        this.store = mapping.store();
        this.plans = new OneToOneByteRing(store, PLAN_RING_OFFSET, planCapacity);
        this.completions = new OneToOneByteRing(store, LinkFileDescriptor.completionRingOffset(planCapacity),
            completionCapacity);
        this.nonce = nonce;
        this.ownerPid = ownerPid;
    }

    /** {@link #create(Path, int, int, byte[])} with default ring sizes and a fresh nonce. */
    public static OwnerSide create(final Path file) throws IOException {
        return create(file, LinkFileDescriptor.DEFAULT_PLAN_RING_CAPACITY,
            LinkFileDescriptor.DEFAULT_COMPLETION_RING_CAPACITY, SessionNonce.generate());
    }

    /**
     * Creates the link file at {@code file} (replacing a previous owner's, refusing anything
     * else: see {@link LinkMapping}), mode 0600, maps it, pre-faults every page, fills the
     * control block and writes the layout version last.
     *
     * @param planRingCapacity a power of two; plans up to an eighth of it fit ({@link #maxPlanLength()}),
     *     so only {@link LinkFileDescriptor#DEFAULT_PLAN_RING_CAPACITY} (2 MiB) or more carries the
     *     largest plan ({@link ActionPlanFlyweight#MAX_PLAN_BYTES}); smaller rings are for tests.
     * @param nonce the session nonce, {@link SessionNonce#LENGTH} bytes (kept, not copied).
     */
    public static OwnerSide create(final Path file, final int planRingCapacity, final int completionRingCapacity,
        final byte[] nonce) throws IOException {
        RingDescriptor.checkCapacity(planRingCapacity);
        RingDescriptor.checkCapacity(completionRingCapacity);
        if (RingDescriptor.maxPayloadLength(planRingCapacity) < ActionPlanFlyweight.LENGTH) {
            throw new IllegalArgumentException("plan ring too small: " + planRingCapacity);
        }
        SessionNonce.checkLength(nonce);
        final long length = LinkFileDescriptor.fileLength(planRingCapacity, completionRingCapacity);
        final LinkMapping mapping = LinkMapping.create(file, length);
        try {
            mapping.preTouch(true);
            final BytesStore<?, ?> s = mapping.store();
            final long pid = ProcessHandle.current().pid();
            final long nowNs = System.nanoTime();
            s.writeLong(MAGIC_OFFSET, LinkFileDescriptor.MAGIC);
            s.writeInt(CONTROL_BLOCK_LENGTH_OFFSET, CONTROL_BLOCK_LENGTH);
            s.write(SESSION_NONCE_OFFSET, nonce, 0, SessionNonce.LENGTH);
            s.writeLong(OWNER_PID_OFFSET, pid);
            s.writeInt(PLAN_RING_CAPACITY_OFFSET, planRingCapacity);
            s.writeInt(COMPLETION_RING_CAPACITY_OFFSET, completionRingCapacity);
            s.writeLong(FILE_LENGTH_OFFSET, length);
            s.writeLong(CREATED_NS_OFFSET, nowNs);
            s.writeLong(OWNER_HEARTBEAT_NS_OFFSET, nowNs);
            // Held before the layout is published, so every helper that can attach finds it held.
            final OwnerAliveLock aliveLock = OwnerAliveLock.hold(mapping);
            s.writeOrderedInt(LAYOUT_VERSION_OFFSET, LinkFileDescriptor.LAYOUT_VERSION);
            final OwnerSide owner = new OwnerSide(mapping, aliveLock, planRingCapacity, completionRingCapacity, nonce, pid);
            LOG.info("event=link-create path={} bytes={} planRing={} completionRing={} pid={}",
                file, length, planRingCapacity, completionRingCapacity, pid);
            return owner;
        } catch (final RuntimeException e) {
            try {
                mapping.close();
                mapping.unlinkIfOurs();
            } catch (final IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Owner thread: copies the plan of {@code length} bytes at {@code offset} of {@code src} into
     * the plan ring. The plan is not validated here (the helper validates every plan).
     *
     * @return false when the ring has no room now or is corrupt.
     * @throws IllegalArgumentException for a plan longer than the ring's maximum payload.
     */
    public boolean tryPublishPlan(final BytesStore<?, ?> src, final long offset, final int length) {
        return plans.tryWrite(LinkRecordType.PLAN, src, offset, length);
    }

    /** Owner thread: publishes the plan a flyweight views, {@code total_size} bytes. */
    public boolean tryPublishPlan(final ActionPlanFlyweight plan) {
        return tryPublishPlan(plan.bytes(), plan.offset(), (int) plan.totalSize());
    }

    /**
     * Owner thread: hands up to {@code limit} completions to {@code handler}, each validated.
     *
     * @return the number of records consumed, or {@link OneToOneByteRing#CORRUPT} if the
     *     completion ring is corrupt (the helper must be replaced).
     */
    public int pollCompletions(final CompletionHandler handler, final int limit) {
        this.handler = handler;
        return completions.read(dispatcher, limit);
    }

    /** Owner thread: ends the timed operation the helper runs now, if any (the cancel word + 1). */
    public void cancelOperation() {
        store.writeOrderedLong(CANCEL_SEQUENCE_OFFSET, store.readLong(CANCEL_SEQUENCE_OFFSET) + 1);
    }

    /** Owner thread: stores {@code nowNs} (CLOCK_MONOTONIC) as the owner's heartbeat. */
    public void beat(final long nowNs) {
        store.writeOrderedLong(OWNER_HEARTBEAT_NS_OFFSET, nowNs);
    }

    /**
     * Owner thread, after publishing: the number of the long park the helper is in, 0 while it
     * polls. A full fence first, so the read cannot pass the publish (the helper's side of the
     * protocol is {@link HelperSide#beginLongPark}).
     */
    public long helperParked() {
        java.lang.invoke.VarHandle.fullFence();
        return store.readVolatileLong(HELPER_PARKED_OFFSET);
    }

    /** The helper's last heartbeat (CLOCK_MONOTONIC ns), 0 before it attached. */
    public long helperHeartbeatNs() {
        return store.readVolatileLong(HELPER_HEARTBEAT_NS_OFFSET);
    }

    /** The attached helper's pid, 0 before one attached. */
    public long helperPid() {
        return store.readVolatileLong(HELPER_PID_OFFSET);
    }

    /** The mapped link file; the ledger is at {@link #ledgerOffset()}. */
    public BytesStore<?, ?> ledgerStore() {
        return store;
    }

    /** Offset of the held-input ledger ({@link LinkFileDescriptor#LEDGER_LENGTH} bytes) in {@link #ledgerStore()}. */
    public long ledgerOffset() {
        return LEDGER_OFFSET;
    }

    /** Why the plan ring is corrupt (seen while publishing), or {@link OneToOneByteRing#CORRUPTION_NONE}. */
    public int planRingCorruption() {
        return plans.corruption();
    }

    /** Why the completion ring is corrupt, or {@link OneToOneByteRing#CORRUPTION_NONE}. */
    public int completionRingCorruption() {
        return completions.corruption();
    }

    /** Completion records that failed validation so far. */
    public long invalidCompletions() {
        return invalidCompletions;
    }

    /** Plan bytes published and not yet consumed by the helper. */
    public long pendingPlanBytes() {
        return plans.size();
    }

    public int maxPlanLength() {
        return plans.maxPayloadLength();
    }

    /** The session nonce (the array itself: do not modify). */
    public byte[] nonce() {
        return nonce;
    }

    public long ownerPid() {
        return ownerPid;
    }

    public Path path() {
        return mapping.path();
    }

    /** For tests that damage the rings on purpose. */
    BytesStore<?, ?> store() {
        return store;
    }

    OneToOneByteRing planRing() {
        return plans;
    }

    /**
     * Unmaps the file and unlinks it if it is still the one this side created. The helper's
     * mapping stays valid until it closes its side.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (aliveLock != null) {
            aliveLock.close(); // before the unmap: its thread unlocks the mutex inside the mapping
        }
        IOException failure = null;
        try {
            mapping.close();
        } catch (final IOException e) {
            failure = e;
        }
        boolean unlinked = false;
        try {
            unlinked = mapping.unlinkIfOurs();
        } catch (final IOException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        LOG.info("event=link-close side=owner path={} unlinked={}", mapping.path(), unlinked);
        if (failure != null) {
            throw failure;
        }
    }

    private void onRecord(final int type, final BytesStore<?, ?> s, final long offset, final int length) {
        final long planId = length >= Long.BYTES ? s.readLong(offset) : 0;
        if (type != LinkRecordType.COMPLETION) {
            invalidCompletions++;
            handler.onInvalidCompletion(planId, WRONG_RECORD_TYPE);
            return;
        }
        final int verdict = validator.validateCompletion(s, offset, length);
        if (verdict != PlanValidator.VALID) {
            invalidCompletions++;
            handler.onInvalidCompletion(planId, verdict);
            return;
        }
        handler.onCompletion(completion.wrap(s, offset));
    }
}
