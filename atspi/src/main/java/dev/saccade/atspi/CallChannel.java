package dev.saccade.atspi;

/**
 * Where a refresh sends one application's calls: the accessibility bus (through the daemon) or a
 * peer-to-peer connection to the application itself.
 */
interface CallChannel {
    /** Builds a call to an object of the application and adds it to the batch (not sent yet). */
    Reply call(
        CallBatch batch, String path, String iface, String member, String signature, int kind, int index,
        Object... args);

    /** Sends every call of the batch, then seals it. */
    void send(CallBatch batch);
}
