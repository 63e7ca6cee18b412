// End-to-end check of `saccade mcp` in MCP 2026-07-28 with the official v2 TypeScript client (run by
// McpSdkV2DesktopIT). The client is pinned to 2026-07-28: it probes with server/discover (on a sibling
// process it spawns and disposes of), then sends every request with the _meta envelope and no initialize;
// anything but a 2026-07-28 server fails the connect. The scenario is the v1 check's (scenario.mjs, copied
// beside this file from ../mcp-client).
// Usage: node client.mjs <bin/saccade> <agent endpoint socket>
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { main } from './scenario.mjs';

await main(async (command, args) => {
  const client = new Client({ name: 'saccade-e2e-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
  return { client, initialized: { server: client.getServerVersion(), protocol: client.getNegotiatedProtocolVersion(),
    capabilities: client.getServerCapabilities() } };
});
