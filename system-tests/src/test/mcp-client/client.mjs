// End-to-end check of `saccade mcp` with the official MCP TypeScript SDK v1 (run by McpSdkDesktopIT).
// Usage: node client.mjs <bin/saccade> <agent endpoint socket>
// Prints one JSON object per step on stdout; the Java test asserts on them. On {"step":"restart-owner"}
// it waits for one line on stdin: the test has killed the owner with SIGKILL and started a new one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { main } from './scenario.mjs';

await main(async (command, args) => {
  const client = new Client({ name: 'saccade-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
  return { client, initialized: { server: client.getServerVersion() } };
});
