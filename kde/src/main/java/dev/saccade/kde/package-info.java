/**
 * The KDE Plasma desktop backend ({@link dev.saccade.kde.KdeBackend}, for a
 * {@code wayland:<socket>} display whose compositor is KWin): {@link dev.saccade.kde.KwinWindowReader}
 * loads a KWin script that reports KWin's windows (id, pid, caption, class, frame geometry,
 * stacking, active, minimized, screen) to a D-Bus object this package exports, and turns each
 * report into a {@link dev.saccade.desktop.DesktopSnapshot} (docs/desktops/kde.md, D37).
 */
package dev.saccade.kde;
