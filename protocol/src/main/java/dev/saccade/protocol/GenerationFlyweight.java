package dev.saccade.protocol;

/**
 * Generation, 80 bytes: the identity and epochs of the scene a completion was answered from (spec §5.2).
 * <pre>
 *     0  generation                     u64
 *     8  scene_epoch                    u64
 *    16  frame_id                       u64
 *    24  capture_time_ns                u64
 *    32  process_id                     u64
 *    40  window_id                      u64
 *    48  display_id                     u64
 *    56  transform_epoch                u64
 *    64  topology_epoch                 u64
 *    72  permission_epoch               u64
 *    80  end</pre>
 */
public final class GenerationFlyweight extends Flyweight<GenerationFlyweight> {
    public static final int GENERATION_OFFSET = 0;
    public static final int SCENE_EPOCH_OFFSET = GENERATION_OFFSET + Long.BYTES;
    public static final int FRAME_ID_OFFSET = SCENE_EPOCH_OFFSET + Long.BYTES;
    public static final int CAPTURE_TIME_NS_OFFSET = FRAME_ID_OFFSET + Long.BYTES;
    public static final int PROCESS_ID_OFFSET = CAPTURE_TIME_NS_OFFSET + Long.BYTES;
    public static final int WINDOW_ID_OFFSET = PROCESS_ID_OFFSET + Long.BYTES;
    public static final int DISPLAY_ID_OFFSET = WINDOW_ID_OFFSET + Long.BYTES;
    public static final int TRANSFORM_EPOCH_OFFSET = DISPLAY_ID_OFFSET + Long.BYTES;
    public static final int TOPOLOGY_EPOCH_OFFSET = TRANSFORM_EPOCH_OFFSET + Long.BYTES;
    public static final int PERMISSION_EPOCH_OFFSET = TOPOLOGY_EPOCH_OFFSET + Long.BYTES;
    public static final int LENGTH = PERMISSION_EPOCH_OFFSET + Long.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public long generation() {
        return u64(GENERATION_OFFSET);
    }

    public GenerationFlyweight generation(final long value) {
        putU64(GENERATION_OFFSET, value);
        return this;
    }

    public long sceneEpoch() {
        return u64(SCENE_EPOCH_OFFSET);
    }

    public GenerationFlyweight sceneEpoch(final long value) {
        putU64(SCENE_EPOCH_OFFSET, value);
        return this;
    }

    public long frameId() {
        return u64(FRAME_ID_OFFSET);
    }

    public GenerationFlyweight frameId(final long value) {
        putU64(FRAME_ID_OFFSET, value);
        return this;
    }

    public long captureTimeNs() {
        return u64(CAPTURE_TIME_NS_OFFSET);
    }

    public GenerationFlyweight captureTimeNs(final long value) {
        putU64(CAPTURE_TIME_NS_OFFSET, value);
        return this;
    }

    public long processId() {
        return u64(PROCESS_ID_OFFSET);
    }

    public GenerationFlyweight processId(final long value) {
        putU64(PROCESS_ID_OFFSET, value);
        return this;
    }

    public long windowId() {
        return u64(WINDOW_ID_OFFSET);
    }

    public GenerationFlyweight windowId(final long value) {
        putU64(WINDOW_ID_OFFSET, value);
        return this;
    }

    public long displayId() {
        return u64(DISPLAY_ID_OFFSET);
    }

    public GenerationFlyweight displayId(final long value) {
        putU64(DISPLAY_ID_OFFSET, value);
        return this;
    }

    public long transformEpoch() {
        return u64(TRANSFORM_EPOCH_OFFSET);
    }

    public GenerationFlyweight transformEpoch(final long value) {
        putU64(TRANSFORM_EPOCH_OFFSET, value);
        return this;
    }

    public long topologyEpoch() {
        return u64(TOPOLOGY_EPOCH_OFFSET);
    }

    public GenerationFlyweight topologyEpoch(final long value) {
        putU64(TOPOLOGY_EPOCH_OFFSET, value);
        return this;
    }

    public long permissionEpoch() {
        return u64(PERMISSION_EPOCH_OFFSET);
    }

    public GenerationFlyweight permissionEpoch(final long value) {
        putU64(PERMISSION_EPOCH_OFFSET, value);
        return this;
    }
}
