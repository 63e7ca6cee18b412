/**
 * Scene sources: turn what the platform reports (the X11 window list and monitors, later the
 * accessibility tree) into scene packets on their own threads, never on the owner thread.
 */
package dev.saccade.owner.source;
