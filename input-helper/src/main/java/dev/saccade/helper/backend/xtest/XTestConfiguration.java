package dev.saccade.helper.backend.xtest;

/** The XTEST backend's system property and its default; docs/settings.md lists it. */
public final class XTestConfiguration {
    /** How long a key code bound for a text's character stays bound unused before it is restored. */
    public static final String BINDING_GRACE_MS_PROP_NAME = "saccade.helper.xtest.binding.grace.ms";
    /**
     * 1 s. A client must have translated the key events before their binding goes (zenity needs
     * a few ms for short texts, about 0.4 s for 1,000 characters); a binding that stays costs
     * nothing, while every keymap change costs each X client a keymap reload (openbox: about
     * 50 ms of CPU each, measured), so consecutive texts should reuse bindings. The restore is
     * off the typing path.
     */
    public static final long BINDING_GRACE_MS_DEFAULT = 1_000;

    private XTestConfiguration() {
    }

    public static long bindingGraceMs() {
        return Long.getLong(BINDING_GRACE_MS_PROP_NAME, BINDING_GRACE_MS_DEFAULT);
    }
}
