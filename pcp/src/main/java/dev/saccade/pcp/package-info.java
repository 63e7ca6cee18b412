/**
 * PCP, the JSON-RPC 2.0 capability protocol (docs/spec/pcp.md): applications register
 * signed capability manifests, a trusted caller ({@code SystemIntelligence}) queries surfaces and
 * elements and invokes capabilities (with host-side confirmation for trust level
 * {@code confirm}) and structural actions, subscribes to events, and manages registrations.
 * {@link dev.saccade.pcp.PcpCore} is the in-process transport;
 * {@link dev.saccade.pcp.PcpServer} frames it as newline-delimited JSON-RPC on
 * {@code $RUN/saccade-pcp-v1.sock} (and loopback TCP with a bearer token when enabled); the
 * host confirmation socket {@code $RUN/saccade-pcp-host-v1.sock} is where the user approves.
 * Everything runs on PCP's own threads, never on the owner thread.
 */
package dev.saccade.pcp;
