/**
 * {@code saccade pcp}: the PCP client commands, one class each ({@code call}, {@code listen},
 * {@code confirm}, {@code deny}, {@code trust}), over the owner's newline-delimited JSON-RPC
 * socket through {@link dev.saccade.pcp.PcpClient}; confirm and deny talk to the host
 * confirmation socket beside it, which PCP callers cannot approve through.
 */
package dev.saccade.cli.pcp;
