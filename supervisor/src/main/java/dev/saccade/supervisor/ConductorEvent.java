package dev.saccade.supervisor;

import java.util.concurrent.CompletableFuture;

/** What the conductor reacts to: a child's exit, or a control command with its reply. */
final class ConductorEvent {
    final OwnerProcess owner;
    final HelperProcess helper;
    final ControlRequest request;
    final CompletableFuture<String> reply;
    /** An owner's {@code input} line came: readiness may have changed. */
    final boolean input;

    private ConductorEvent(final OwnerProcess owner, final HelperProcess helper, final ControlRequest request,
        final CompletableFuture<String> reply) {
        this(owner, helper, request, reply, false);
    }

    private ConductorEvent(final OwnerProcess owner, final HelperProcess helper, final ControlRequest request,
        final CompletableFuture<String> reply, final boolean input) {
        this.owner = owner;
        this.helper = helper;
        this.request = request;
        this.reply = reply;
        this.input = input;
    }

    static ConductorEvent inputChanged() {
        return new ConductorEvent(null, null, null, null, true);
    }

    static ConductorEvent ownerExited(final OwnerProcess owner) {
        return new ConductorEvent(owner, null, null, null);
    }

    static ConductorEvent helperExited(final HelperProcess helper) {
        return new ConductorEvent(null, helper, null, null);
    }

    static ConductorEvent command(final ControlRequest request, final CompletableFuture<String> reply) {
        return new ConductorEvent(null, null, request, reply);
    }
}
