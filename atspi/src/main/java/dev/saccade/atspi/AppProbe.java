package dev.saccade.atspi;

import static dev.saccade.atspi.DraftTree.ROOT;
import static dev.saccade.atspi.ReplyKind.K_PEER_ADDRESS;
import static dev.saccade.atspi.ReplyKind.K_PID;
import static dev.saccade.atspi.ReplyKind.K_ROOT_INTERFACES;
import static dev.saccade.atspi.ReplyKind.K_ROOT_NAME;
import static dev.saccade.atspi.ReplyKind.K_ROOT_TOOLKIT;
import static dev.saccade.atspi.ReplyKind.K_ROOT_VERSION;

import org.freedesktop.dbus.exceptions.DBusException;

/**
 * The probe stage of an application's first refresh: its pid, name and interfaces, and the
 * address of its own D-Bus server (see {@link PeerLink}), always over the bus. What it learns
 * stays in the {@link KnownApp}: whether the application is listed in bulk or walked, and its id
 * seed.
 */
final class AppProbe {
    private AppProbe() {
    }

    /** Adds the probe's calls to {@code batch}. */
    static void ask(
        final CallBatch batch, final AtspiBus bus, final CallChannel busChannel, final KnownApp app, final PeerLink peers)
        throws DBusException {
        batch.add(bus.call(AtspiBus.DBUS, AtspiBus.DBUS_PATH, AtspiBus.DBUS, "GetConnectionUnixProcessID", "s",
            batch, K_PID, ROOT, app.busName));
        busChannel.call(batch, app.rootPath, AtspiBus.ACCESSIBLE, "GetInterfaces", null, K_ROOT_INTERFACES, ROOT);
        busChannel.call(batch, app.rootPath, AtspiBus.PROPERTIES, "Get", "ss", K_ROOT_NAME, ROOT,
            AtspiBus.ACCESSIBLE, "Name");
        // one Get each: Qt 5.15 crashes on GetAll
        busChannel.call(batch, app.rootPath, AtspiBus.PROPERTIES, "Get", "ss", K_ROOT_TOOLKIT, ROOT,
            AtspiBus.APPLICATION, "ToolkitName");
        busChannel.call(batch, app.rootPath, AtspiBus.PROPERTIES, "Get", "ss", K_ROOT_VERSION, ROOT,
            AtspiBus.APPLICATION, "Version");
        if (peers != null) {
            busChannel.call(batch, app.rootPath, AtspiBus.APPLICATION, "GetApplicationBusAddress", null,
                K_PEER_ADDRESS, ROOT);
        }
    }

    /**
     * Reads the probe's replies into {@code app}.
     *
     * @return null, or the failed reply that leaves the application unprobed
     */
    static Reply read(final CallBatch batch, final KnownApp app) {
        boolean sawCollection = false;
        Object toolkit = null;
        Object version = null;
        for (final Reply call : batch.calls) {
            switch (call.kind()) {
                case K_PID -> app.pid = AtspiCall.asLong(call.value(), 0);
                case K_ROOT_NAME -> {
                    if (call.value() instanceof String s) {
                        app.name = s;
                        app.guarded = isGuarded(s);
                    }
                }
                case K_ROOT_TOOLKIT -> toolkit = call.failed() ? null : call.value();
                case K_ROOT_VERSION -> version = call.failed() ? null : call.value();
                case K_PEER_ADDRESS -> {
                    if (call.value() instanceof String address) {
                        app.peerAddress = PeerLink.socketPath(address);
                    }
                }
                case K_ROOT_INTERFACES -> {
                    if (call.failed()) {
                        return call;
                    }
                    final Object list = call.value();
                    for (int i = 0, n = AtspiCall.length(list); i < n; i++) {
                        if (AtspiBus.COLLECTION.equals(AtspiCall.item(list, i))) {
                            sawCollection = true;
                        }
                    }
                }
                default -> {
                }
            }
        }
        app.gtk4 = isGtk4(toolkit, version);
        if (JAVA_TOOLKIT.equals(toolkit)) {
            // Swing's lists, tables and trees manage their descendants, so a Collection match
            // leaves out a combo box's popup items, table cells and tree rows: walk it instead (D49)
            app.guarded = true;
            app.listsManaged = true;
        }
        app.probed = true;
        app.idSeed = AtspiTargetIds.appSeed(app.busName, app.pid);
        app.collection = sawCollection && !app.guarded ? KnownApp.COLLECTION_YES : KnownApp.COLLECTION_NO;
        if (app.collection != KnownApp.COLLECTION_YES) {
            app.peerAddress = null;  // only at-spi2-atk gets the peer path (see KnownApp)
        }
        return null;
    }

    /**
     * An application whose tree is walked with its children listed only where that is bounded
     * ({@link KnownApp#guarded}): LibreOffice, by its application object's name.
     */
    static boolean isGuarded(final String applicationName) {
        final String name = applicationName.toLowerCase(java.util.Locale.ROOT);
        return name.contains("soffice") || name.contains("libreoffice");
    }

    /** The ToolkitName of the Java ATK wrapper (Swing and AWT applications). */
    static final String JAVA_TOOLKIT = "J2SE-access-bridge";

    /** The Application interface's ToolkitName and Version say GTK, 4.x. */
    static boolean isGtk4(final Object toolkitName, final Object version) {
        return "GTK".equals(toolkitName) && version instanceof String v && v.startsWith("4.");
    }
}
