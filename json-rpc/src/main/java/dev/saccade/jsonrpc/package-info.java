/**
 * The line-delimited JSON-RPC 2.0 layer that MCP (on stdio) and PCP (on its socket) share:
 * reading bounded lines ({@link dev.saccade.jsonrpc.LineReader}), parsing strict UTF-8 JSON into
 * small trees ({@link dev.saccade.jsonrpc.JsonLineParser}), writing compact lines
 * ({@link dev.saccade.jsonrpc.JsonLineWriter}) and the envelope around results and errors
 * ({@link dev.saccade.jsonrpc.JsonRpcEnvelope}); what each method means is the adapters'.
 */
package dev.saccade.jsonrpc;
