/**
 * Installs Saccade for one user: the versioned layout ({@link dev.saccade.installer.InstallLayout},
 * {@code versions/<version>} and an atomically switched {@code current} link), the login item that
 * starts {@code saccade supervisor run} at login ({@link dev.saccade.installer.SystemdUserUnit},
 * {@link dev.saccade.installer.LaunchAgentPlist}, {@link dev.saccade.installer.LogonTaskXml}),
 * {@link dev.saccade.installer.InstallPlan} (what an install writes, printable before it is written)
 * and {@link dev.saccade.installer.Uninstall}. Login items are generated as plain text; only
 * {@link dev.saccade.installer.Systemctl} runs a process.
 *
 * <p>Depends on nothing of ours but {@code protocol}; the CLI commands {@code install},
 * {@code uninstall} and {@code upgrade} drive it. See docs/architecture.md, "Modules and arrows" and "Processes".
 */
package dev.saccade.installer;
