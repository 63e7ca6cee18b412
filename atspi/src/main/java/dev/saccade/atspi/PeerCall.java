package dev.saccade.atspi;

/**
 * A call sent over a {@link PeerLink} connection. Its answer is set once by the link's I/O thread
 * (decoded there) and read by the thread that collects the batch.
 */
final class PeerCall implements Reply {
    final int serial;
    private final int kind;
    private final int index;
    private final Reply.Sink sink;
    /** Written once by the I/O thread before {@link #answered} turns true. */
    private Object[] body;
    private String errorName;
    private String errorText;
    private volatile boolean answered;

    PeerCall(final int serial, final int kind, final int index, final Reply.Sink sink) {
        this.serial = serial;
        this.kind = kind;
        this.index = index;
        this.sink = sink;
    }

    /** Sets the answer (first one wins) and tells the sink. */
    void complete(final Object[] replyBody, final String error, final String text) {
        synchronized (this) {
            if (answered) {
                return;
            }
            body = replyBody;
            errorName = error;
            errorText = text;
            answered = true;
        }
        sink.replied(this);
    }

    @Override
    public int kind() {
        return kind;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public boolean answered() {
        return answered;
    }

    @Override
    public boolean failed() {
        return answered && errorName != null;
    }

    @Override
    public String errorName() {
        return answered ? errorName : null;
    }

    @Override
    public String errorText() {
        return answered ? errorText : null;
    }

    @Override
    public Object[] parameters() {
        return answered && errorName == null ? body : null;
    }
}
