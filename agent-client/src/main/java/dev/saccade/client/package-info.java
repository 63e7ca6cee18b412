/**
 * The blocking client of the agent endpoint that the CLI, MCP, PCP and the benchmarks share
 * ({@link dev.saccade.client.AgentClient}): builders of Hello, observe, query and action batch
 * requests, the exchanges that read their replies, verification of a batch against the next
 * generation, and the typed failures a caller handles.
 */
package dev.saccade.client;
