package dev.saccade.pcp;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The user's side of confirmations for the socket tests, where no desktop runs: it keeps what
 * each prompt showed and answers as the user would ({@link #allow}, {@link #deny}). The real
 * prompt, a notification on a real desktop, is {@code PcpConfirmationDesktopTest}'s.
 */
final class RecordingPrompt implements ConfirmationPrompt {
    private final Map<String, Request> requests = new ConcurrentHashMap<>();
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<String> shown = new LinkedBlockingQueue<>();
    final Set<String> withdrawn = ConcurrentHashMap.newKeySet();
    private volatile ConfirmationPrompt.Shown reach = ConfirmationPrompt.Shown.WITH_ACTIONS;

    /** Prompts from now on reach the user this far. */
    void reach(final ConfirmationPrompt.Shown how) {
        reach = how;
    }

    @Override
    public ConfirmationPrompt.Shown show(final Request request, final Answer answer) {
        if (reach != ConfirmationPrompt.Shown.NOT_SHOWN) {
            requests.put(request.confirmationId, request);
            answers.put(request.confirmationId, answer);
            shown.add(request.confirmationId);
        }
        return reach;
    }

    Request request(final String confirmationId) {
        return requests.get(confirmationId);
    }

    /** The id of the next prompt shown, within {@code timeout}. */
    String next(final Duration timeout) throws InterruptedException {
        final String id = shown.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (id == null) {
            throw new AssertionError("no confirmation prompt shown within " + timeout);
        }
        return id;
    }

    void allow(final String confirmationId) {
        answers.remove(confirmationId).allowed();
    }

    void deny(final String confirmationId) {
        answers.remove(confirmationId).denied();
    }

    @Override
    public void withdraw(final String confirmationId) {
        withdrawn.add(confirmationId);
    }

    @Override
    public void close() {
        answers.clear();
    }
}
