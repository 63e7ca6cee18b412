/**
 * The shared-memory link between the owner and the input helper:
 *
 * <ul>
 *   <li>one shared-memory file, {@code $SHM/saccade-input-v1-<uid>-<owner pid>}, mode 0600
 *       ({@link dev.saccade.ipc.link.LinkFileDescriptor}): a control block (magic, layout
 *       version written last, session nonce, pids, heartbeats, the held-input ledger region),
 *       a plan ring owner → helper and a completion ring helper → owner;</li>
 *   <li>the rings: single-producer single-consumer byte rings of variable-length records in the
 *       manner of Agrona's OneToOneRingBuffer ({@link dev.saccade.ipc.link.OneToOneByteRing},
 *       {@link dev.saccade.ipc.link.RingDescriptor}), every header validated on read;</li>
 *   <li>the two ends: {@link dev.saccade.ipc.link.OwnerSide} (creates the file, publishes
 *       plans, drains completions) and {@link dev.saccade.ipc.link.HelperSide} (attaches with
 *       the nonce its launcher gave it, drains plans, publishes completions); their polling
 *       methods never block and allocate nothing;</li>
 *   <li>the lifeline: a Unix socket whose end-of-file tells the helper within milliseconds that
 *       the owner is gone ({@link dev.saccade.ipc.link.OwnerLifeline},
 *       {@link dev.saccade.ipc.link.HelperLifeline}, {@link dev.saccade.ipc.link.LifelineWatcher}),
 *       accepted only between processes of our uid that prove the session nonce.</li>
 * </ul>
 *
 * <p>Launch order: the owner creates the link file and binds the lifeline, starts the helper
 * with the file, the socket, its pid and the nonce (in the environment,
 * {@link dev.saccade.ipc.link.SessionNonce#ENVIRONMENT_VARIABLE}); the helper opens the file
 * ({@code HelperSide.open}), connects the lifeline and starts its watcher; the owner's
 * {@code awaitHelper} returns, and only then does it publish plans.
 */
package dev.saccade.ipc.link;
