package dev.saccade.owner.scene;

import dev.saccade.protocol.GenerationFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.TargetFlyweight;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * One scene generation in a preallocated off-heap buffer: a header with the generation's
 * epochs and the interaction state read with it, then target records in the wire's 88-byte
 * layout (so observe copies them as they are), then the text lane. A record's text_offset here
 * is relative to the start of the lane.
 * <pre>
 *  0                      HEADER_LENGTH          TARGETS + max × 88
 *  | header (epochs,      | target records ...   | text lane ...        |
 *  |  interaction state)  |                      |                      |
 * </pre>
 * Written by one source thread between {@link SceneStore#claim()} and
 * {@link SceneStore#publish(ScenePacket)}; read only by the owner thread after that; never
 * written again until the store recycles it.
 */
public final class ScenePacket implements AutoCloseable {
    public static final int SCENE_EPOCH_OFFSET = 0;
    public static final int FRAME_ID_OFFSET = SCENE_EPOCH_OFFSET + Long.BYTES;
    public static final int CAPTURE_TIME_NS_OFFSET = FRAME_ID_OFFSET + Long.BYTES;
    public static final int TRANSFORM_EPOCH_OFFSET = CAPTURE_TIME_NS_OFFSET + Long.BYTES;
    public static final int TOPOLOGY_EPOCH_OFFSET = TRANSFORM_EPOCH_OFFSET + Long.BYTES;
    public static final int FLAGS_OFFSET = TOPOLOGY_EPOCH_OFFSET + Long.BYTES;
    public static final int TARGET_COUNT_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int TEXT_SIZE_OFFSET = TARGET_COUNT_OFFSET + Integer.BYTES;
    public static final int STATE_FLAGS_OFFSET = TEXT_SIZE_OFFSET + Integer.BYTES;
    // Interaction state (spec §5.2): what the foreground was when this scene was read.
    public static final int PROCESS_ID_OFFSET = STATE_FLAGS_OFFSET + Integer.BYTES;
    public static final int WINDOW_ID_OFFSET = PROCESS_ID_OFFSET + Long.BYTES;
    public static final int DISPLAY_ID_OFFSET = WINDOW_ID_OFFSET + Long.BYTES;
    public static final int PERMISSION_EPOCH_OFFSET = DISPLAY_ID_OFFSET + Long.BYTES;
    public static final int WINDOW_BOUNDS_OFFSET = PERMISSION_EPOCH_OFFSET + Long.BYTES;
    /** The epochs the state believes current; a disagreement with the scene's is STALE_GENERATION. */
    public static final int STATE_SCENE_EPOCH_OFFSET = WINDOW_BOUNDS_OFFSET + RectQ8.LENGTH;
    public static final int STATE_TRANSFORM_EPOCH_OFFSET = STATE_SCENE_EPOCH_OFFSET + Long.BYTES;
    public static final int STATE_TOPOLOGY_EPOCH_OFFSET = STATE_TRANSFORM_EPOCH_OFFSET + Long.BYTES;
    public static final int HEADER_LENGTH = 192;
    public static final int TARGETS_OFFSET = HEADER_LENGTH;

    /** A source bounded or interrupted its traversal: completions carry SOURCE_INCOMPLETE. */
    public static final int FLAG_INCOMPLETE = 0x1;
    /** The state's foreground window is known (ACTIVE_WINDOW reads need it). */
    public static final int STATE_ACTIVE_WINDOW_KNOWN = 0x1;

    private static final long NO_KEY = 0;

    private final BytesStore<?, Void> bytes;
    private final int maxTargets;
    private final int maxTextBytes;
    private final long laneOffset;
    private final TargetFlyweight writer = new TargetFlyweight();
    // Open-addressed index target_id → record index, built at seal(); ids are never 0.
    private final long[] indexKeys;
    private final int[] indexValues;
    private final int indexMask;

    public ScenePacket(final int maxTargets, final int maxTextBytes) {
        this.maxTargets = maxTargets;
        this.maxTextBytes = maxTextBytes;
        this.laneOffset = TARGETS_OFFSET + (long) maxTargets * TargetFlyweight.LENGTH;
        this.bytes = BytesStore.nativeStoreWithFixedCapacity(laneOffset + maxTextBytes);
        this.bytes.zeroOut(0, bytes.capacity());
        final int slots = Integer.highestOneBit(Math.max(2, maxTargets) * 2 - 1) << 1;
        this.indexKeys = new long[slots];
        this.indexValues = new int[slots];
        this.indexMask = slots - 1;
    }

    public BytesStore<?, Void> bytes() {
        return bytes;
    }

    public int maxTargets() {
        return maxTargets;
    }

    // ---- reading (owner thread) ----

    public long sceneEpoch() {
        return bytes.readLong(SCENE_EPOCH_OFFSET);
    }

    public long frameId() {
        return bytes.readLong(FRAME_ID_OFFSET);
    }

    public long captureTimeNs() {
        return bytes.readLong(CAPTURE_TIME_NS_OFFSET);
    }

    public long transformEpoch() {
        return bytes.readLong(TRANSFORM_EPOCH_OFFSET);
    }

    public long topologyEpoch() {
        return bytes.readLong(TOPOLOGY_EPOCH_OFFSET);
    }

    public boolean incomplete() {
        return (bytes.readInt(FLAGS_OFFSET) & FLAG_INCOMPLETE) != 0;
    }

    public int targetCount() {
        return bytes.readInt(TARGET_COUNT_OFFSET);
    }

    public int textSize() {
        return bytes.readInt(TEXT_SIZE_OFFSET);
    }

    public long processId() {
        return bytes.readLong(PROCESS_ID_OFFSET);
    }

    public long windowId() {
        return bytes.readLong(WINDOW_ID_OFFSET);
    }

    public long displayId() {
        return bytes.readLong(DISPLAY_ID_OFFSET);
    }

    public long permissionEpoch() {
        return bytes.readLong(PERMISSION_EPOCH_OFFSET);
    }

    public boolean activeWindowKnown() {
        return (bytes.readInt(STATE_FLAGS_OFFSET) & STATE_ACTIVE_WINDOW_KNOWN) != 0;
    }

    /** Whether the state and the scene agree on the scene, transform and topology epochs. */
    public boolean coherent() {
        return bytes.readLong(STATE_SCENE_EPOCH_OFFSET) == sceneEpoch()
            && bytes.readLong(STATE_TRANSFORM_EPOCH_OFFSET) == transformEpoch()
            && bytes.readLong(STATE_TOPOLOGY_EPOCH_OFFSET) == topologyEpoch();
    }

    /** Absolute offset of the active window's bounds (RectQ8) in {@link #bytes()}. */
    /**
     * Fills {@code g} with this scene's Generation (§5.2), naming {@code processId} and
     * {@code windowId} as the scene's owner: the foreground's, or a named window's (§5.3).
     */
    public GenerationFlyweight writeGeneration(final GenerationFlyweight g, final long processId, final long windowId) {
        return g.generation(sceneEpoch()).sceneEpoch(sceneEpoch()).frameId(frameId())
            .captureTimeNs(captureTimeNs()).processId(processId).windowId(windowId)
            .displayId(displayId()).transformEpoch(transformEpoch())
            .topologyEpoch(topologyEpoch()).permissionEpoch(permissionEpoch());
    }

    public long windowBoundsAt() {
        return WINDOW_BOUNDS_OFFSET;
    }

    /** Absolute offset of record {@code index}. */
    public long recordAt(final int index) {
        return TARGETS_OFFSET + (long) index * TargetFlyweight.LENGTH;
    }

    /** Absolute offset of the text lane; records' text_offset are relative to it. */
    public long laneAt() {
        return laneOffset;
    }

    /** Record index of a target id, or -1. */
    public int indexOf(final long targetId) {
        if (targetId == NO_KEY) {
            return -1;
        }
        int slot = (int) mix(targetId) & indexMask;
        while (true) {
            final long key = indexKeys[slot];
            if (key == targetId) {
                return indexValues[slot];
            }
            if (key == NO_KEY) {
                return -1;
            }
            slot = (slot + 1) & indexMask;
        }
    }

    // ---- writing (the source thread that claimed it) ----

    /** Empties the packet for a new scene; epochs and state are zeroed. */
    public ScenePacket reset() {
        bytes.zeroOut(0, HEADER_LENGTH);
        Arrays.fill(indexKeys, NO_KEY);
        return this;
    }

    public ScenePacket frame(final long frameId, final long captureTimeNs) {
        bytes.writeLong(FRAME_ID_OFFSET, frameId);
        bytes.writeLong(CAPTURE_TIME_NS_OFFSET, captureTimeNs);
        return this;
    }

    public ScenePacket epochs(final long transformEpoch, final long topologyEpoch) {
        bytes.writeLong(TRANSFORM_EPOCH_OFFSET, transformEpoch);
        bytes.writeLong(TOPOLOGY_EPOCH_OFFSET, topologyEpoch);
        return this;
    }

    public ScenePacket markIncomplete() {
        bytes.writeInt(FLAGS_OFFSET, bytes.readInt(FLAGS_OFFSET) | FLAG_INCOMPLETE);
        return this;
    }

    /**
     * The interaction state read with this scene. {@code windowId} 0 means no active window.
     */
    public ScenePacket state(
        final long processId, final long windowId, final long displayId, final long permissionEpoch,
        final int xQ8, final int yQ8, final int widthQ8, final int heightQ8) {
        bytes.writeLong(PROCESS_ID_OFFSET, processId);
        bytes.writeLong(WINDOW_ID_OFFSET, windowId);
        bytes.writeLong(DISPLAY_ID_OFFSET, displayId);
        bytes.writeLong(PERMISSION_EPOCH_OFFSET, permissionEpoch);
        RectQ8.write(bytes, WINDOW_BOUNDS_OFFSET, xQ8, yQ8, widthQ8, heightQ8);
        bytes.writeInt(STATE_FLAGS_OFFSET, windowId != 0 ? STATE_ACTIVE_WINDOW_KNOWN : 0);
        return this;
    }

    /**
     * The epochs the state was read against, for a state read apart from its scene. Sources
     * that read both together leave them 0 and {@link SceneStore#publish} makes them agree.
     */
    public ScenePacket stateEpochs(final long sceneEpoch, final long transformEpoch, final long topologyEpoch) {
        bytes.writeLong(STATE_SCENE_EPOCH_OFFSET, sceneEpoch);
        bytes.writeLong(STATE_TRANSFORM_EPOCH_OFFSET, transformEpoch);
        bytes.writeLong(STATE_TOPOLOGY_EPOCH_OFFSET, topologyEpoch);
        return this;
    }

    /**
     * Appends a zeroed record and returns a writer over it, or null when the packet is full (the
     * scene is then marked incomplete). The writer is reused by the next call.
     */
    public TargetFlyweight addTarget() {
        final int count = targetCount();
        if (count == maxTargets) {
            markIncomplete();
            return null;
        }
        bytes.writeInt(TARGET_COUNT_OFFSET, count + 1);
        return writer.wrap(bytes, recordAt(count)).clear();
    }

    /**
     * Sets the text of the record the writer last returned by {@link #addTarget()} views. If the
     * lane is full the text is dropped and the scene marked incomplete.
     */
    public void text(final TargetFlyweight target, final byte[] utf8, final int offset, final int length) {
        final int used = textSize();
        if (length == 0) {
            return;
        }
        if (length > maxTextBytes - used) {
            markIncomplete();
            return;
        }
        bytes.write(laneOffset + used, utf8, offset, length);
        target.textOffset(used).textSize(length);
        bytes.writeInt(TEXT_SIZE_OFFSET, used + length);
    }

    /** Builds the id index; called by {@link SceneStore#publish}. Duplicate ids keep the first. */
    void seal(final long sceneEpoch) {
        bytes.writeLong(SCENE_EPOCH_OFFSET, sceneEpoch);
        final long stateScene = bytes.readLong(STATE_SCENE_EPOCH_OFFSET);
        if (stateScene == 0) {
            // State read together with the scene: it agrees with the epochs the scene carries.
            stateEpochs(sceneEpoch, transformEpoch(), topologyEpoch());
        }
        final int count = targetCount();
        for (int i = 0; i < count; i++) {
            final long id = bytes.readLong(recordAt(i) + TargetFlyweight.TARGET_ID_OFFSET);
            if (id == NO_KEY) {
                continue;
            }
            int slot = (int) mix(id) & indexMask;
            while (indexKeys[slot] != NO_KEY && indexKeys[slot] != id) {
                slot = (slot + 1) & indexMask;
            }
            if (indexKeys[slot] == NO_KEY) {
                indexKeys[slot] = id;
                indexValues[slot] = i;
            }
        }
    }

    private static long mix(final long key) {
        final long h = key * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 32);
    }

    @Override
    public void close() {
        bytes.releaseLast();
    }
}
