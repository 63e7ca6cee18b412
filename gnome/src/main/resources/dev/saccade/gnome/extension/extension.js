/* Saccade's window list, activation and screenshot for GNOME Shell 43 (docs/desktops/gnome.md).
 * Exported on the shell's own session bus connection, so callers address org.gnome.Shell,
 * object /dev/saccade/Shell, interface dev.saccade.Shell1. Only the session's own user (and
 * whoever the bus admits) can call it; nothing here accepts code or paths outside the caller's
 * runtime directory. */
const { Gio, GLib, Meta, Shell } = imports.gi;
const Main = imports.ui.main;

const IFACE = `<node>
  <interface name="dev.saccade.Shell1">
    <method name="ListWindows"><arg type="s" direction="out" name="json"/></method>
    <method name="Activate"><arg type="t" direction="in" name="id"/><arg type="b" direction="out" name="done"/></method>
    <method name="Screenshot"><arg type="s" direction="in" name="path"/><arg type="b" direction="out" name="done"/></method>
    <property name="Version" type="u" access="read"/>
  </interface>
</node>`;

class SaccadeShell {
    get Version() {
        return 1;
    }

    ListWindows() {
        const focus = global.display.focus_window;
        const tracker = Shell.WindowTracker.get_default();
        const windows = [];
        const workspace = global.workspace_manager.get_active_workspace();
        let stacking = 0;
        for (const actor of global.get_window_actors()) {
            const w = actor.get_meta_window();
            if (!w || w.is_override_redirect()) {
                continue;
            }
            // Not shown yet, or shown but still transparent: a new window sits where its client
            // started (0,32, under the top bar) until it turns opaque at its place; an action
            // aimed there before would miss (D57).
            if ((!actor.visible || actor.opacity === 0) && !w.minimized && w.located_on_workspace(workspace)) {
                continue;
            }
            const frame = w.get_frame_rect();
            const buffer = w.get_buffer_rect();
            const app = tracker.get_window_app(w);
            windows.push({
                id: String(w.get_id()),
                pid: w.get_pid(),
                title: w.get_title() || '',
                appId: app ? app.get_id() || '' : '',
                wmClass: w.get_wm_class() || '',
                x: frame.x, y: frame.y, width: frame.width, height: frame.height,
                bufferX: buffer.x, bufferY: buffer.y, bufferWidth: buffer.width, bufferHeight: buffer.height,
                stacking: stacking++,
                focused: w === focus,
                minimized: w.minimized,
                monitor: w.get_monitor(),
                x11: w.get_client_type() === Meta.WindowClientType.X11,
                type: w.get_window_type(),
            });
        }
        const monitors = [];
        for (let i = 0; i < global.display.get_n_monitors(); i++) {
            const g = global.display.get_monitor_geometry(i);
            monitors.push({ index: i, x: g.x, y: g.y, width: g.width, height: g.height,
                primary: i === global.display.get_primary_monitor() });
        }
        // the seat's pointer and modifiers: how the input helper sees its new devices are live
        const [px, py, mods] = global.get_pointer();
        return JSON.stringify({ windows, monitors, overview: Main.overview.visible, pointer: { px, py, mods } });
    }

    Activate(id) {
        for (const actor of global.get_window_actors()) {
            const w = actor.get_meta_window();
            if (w && String(w.get_id()) === String(id)) {
                Main.activateWindow(w);
                return true;
            }
        }
        return false;
    }

    ScreenshotAsync(params, invocation) {
        const [path] = params;
        const runtime = GLib.get_user_runtime_dir();
        if (!path.startsWith(runtime + '/') || path.includes('/../')) {
            invocation.return_value(new GLib.Variant('(b)', [false]));
            return;
        }
        const file = Gio.File.new_for_path(path);
        let stream;
        try {
            stream = file.replace(null, false, Gio.FileCreateFlags.PRIVATE | Gio.FileCreateFlags.REPLACE_DESTINATION,
                null);
        } catch (e) {
            invocation.return_value(new GLib.Variant('(b)', [false]));
            return;
        }
        const shot = new Shell.Screenshot();
        shot.screenshot(false, stream, (source, result) => {
            let done = false;
            try {
                shot.screenshot_finish(result);
                done = true;
            } catch (e) {
                logError(e, 'saccade screenshot');
            }
            try {
                stream.close(null);
            } catch (e) {
                done = false;
            }
            invocation.return_value(new GLib.Variant('(b)', [done]));
        });
    }
}

class Extension {
    enable() {
        this._object = Gio.DBusExportedObject.wrapJSObject(IFACE, new SaccadeShell());
        this._object.export(Gio.DBus.session, '/dev/saccade/Shell');
        // A session starts in the overview, which would take the first clicks and keys.
        if (Main.layoutManager._startingUp) {
            this._startup = Main.layoutManager.connect('startup-complete', () => Main.overview.hide());
        }
    }

    disable() {
        if (this._startup) {
            Main.layoutManager.disconnect(this._startup);
            this._startup = 0;
        }
        this._object.unexport();
        this._object = null;
    }
}

function init() {
    return new Extension();
}
