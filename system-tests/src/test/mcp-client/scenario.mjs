// The end-to-end scenario both official MCP TypeScript SDK checks run (McpSdkDesktopIT with the v1 SDK,
// McpSdkV2DesktopIT with the v2 client pinned to 2026-07-28): list the tools, observe, query gtk3-demo's Run
// button, click it with the generation precondition, a stale generation, the owner killed and restarted
// mid-session, and one more click that proves the lost batch never ran. Prints one JSON object per step on
// stdout through `emit`; on {"step":"restart-owner"} it waits for one line on `input`.
// The SDKs differ only in how a client is made and connected; `client` is already connected.
import readline from 'node:readline';

const EFFECT_DEADLINE_MS = 20000;

// The command line both clients take: node client.mjs <bin/saccade> <agent endpoint socket>. `connect`
// spawns `<bin/saccade> mcp --endpoint <socket>` through its SDK's stdio transport and returns the connected
// client and what the "initialized" step reports.
export async function main(connect) {
  const [launcher, endpoint] = process.argv.slice(2);
  const input = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const emit = (step, fields) => process.stdout.write(JSON.stringify({ step, ...fields }) + '\n');
  const { client, initialized } = await connect(launcher, ['mcp', '--endpoint', endpoint]);
  emit('initialized', initialized);
  await run(client, input, emit);
  process.exit(0);
}

async function run(client, input, emit) {
  const call = (name, args) => client.callTool({ name, arguments: args });
  const summary = (r) => ({ isError: r.isError === true, text: r.content?.[0]?.text, structured: r.structuredContent ?? null });
  // Top-level windows in a scene: distinct window ids of the targets with the window role.
  const windows = (s) => new Set(s.targets.filter((t) => t.role === 'window').map((t) => t.windowId)).size;

  // Queries the windows of newer generations until `done(scene)` holds or the deadline passes; returns the
  // last answer. Each query waits (up to 2 s, in the service) for a generation newer than the last one seen.
  async function windowsUntil(after, done) {
    const deadline = Date.now() + EFFECT_DEADLINE_MS;
    let last = null;
    while (Date.now() < deadline) {
      const r = await call('saccade_query', after ? { role: 10, afterGeneration: after } : { role: 10 });
      if (!r.isError) {
        last = r.structuredContent;
        after = last.generation;
        if (done(last)) {
          return last;
        }
      } else if (r.content?.[0]?.text !== 'Query rejected: timeout') {
        emit('observe-error', summary(r));
        after = null; // ask for the latest scene next time
      }
    }
    return last;
  }

  // Queries gtk3-demo's Run button by its text; while the scene does not have it yet (the accessibility
  // tree arrives after the windows), asks again for each newer generation until the deadline. The scene may
  // hold the button before GTK laid it out (bounds 0 x 0: nothing to click, "target not found") and get no
  // event when it is: then the pointer is moved onto gtk3-demo's window once, an input after which the
  // service reads the accessibility tree again.
  async function findRun(after) {
    const deadline = Date.now() + EFFECT_DEADLINE_MS;
    let r;
    let nudged = false;
    do {
      r = await call('saccade_query', after ? { text: 'Run', role: 1, afterGeneration: after } : { text: 'Run', role: 1 });
      const s = r.structuredContent;
      if (s) {
        after = s.generation;
        const run = s.targets.find((t) => t.widthQ8 > 0 && t.heightQ8 > 0);
        if (run) {
          return { result: summary(r), generation: s.generation, run, nudged };
        }
        if (s.targets.length > 0 && !nudged) {
          nudged = true;
          const window = (await call('saccade_query', { role: 10 })).structuredContent?.targets
            ?.find((t) => t.windowId === s.targets[0].windowId);
          if (window) {
            await call('saccade_act', { kind: 'move', targetId: window.id });
          }
        }
      }
    } while (Date.now() < deadline);
    return { result: summary(r), generation: after, run: undefined, nudged };
  }

  // Clicks Run and waits until the number of windows changes: gtk3-demo's Run opens the selected demo's
  // window, and closes it when it is open already.
  async function clickAndAwaitWindow(run, generation, windowsBefore) {
    const act = await call('saccade_act', { kind: 'click', targetId: run.id, generation, verifyNextGeneration: true });
    if (act.isError) {
      return { act: summary(act), windowsAfter: windowsBefore }; // rejected: nothing ran, nothing to wait for
    }
    // The settled next generation may already hold the new window: look at the latest scene first.
    const scene = await windowsUntil(null, (s) => windows(s) !== windowsBefore);
    return { act: summary(act), windowsAfter: scene ? windows(scene) : -1 };
  }

  const tools = await client.listTools();
  emit('tools', {
    names: tools.tools.map((t) => t.name),
    actRequired: tools.tools.find((t) => t.name === 'saccade_act')?.inputSchema?.required ?? [],
    actKinds: tools.tools.find((t) => t.name === 'saccade_act')?.inputSchema?.properties?.kind?.enum ?? [],
  });

  const observed = await call('saccade_observe', { maximumTargets: 10000 });
  const windowsBefore = observed.isError ? -1 : windows(observed.structuredContent);
  emit('observe', { ...summary(observed), structured: undefined, generation: observed.structuredContent?.generation,
    targets: observed.structuredContent?.targets?.length, truncated: observed.structuredContent?.truncated,
    windows: windowsBefore });

  const first = await findRun();
  emit('query', { ...first.result, structured: undefined, generation: first.generation, run: first.run,
    nudged: first.nudged });

  // The baseline of the effect: the windows once the scene has the Run button (the tree is complete by then).
  const baseline = windows((await call('saccade_query', { role: 10 })).structuredContent);
  const click = await clickAndAwaitWindow(first.run, first.generation, baseline);
  emit('click', { ...click.act, windowsBefore: baseline, windowsAfter: click.windowsAfter });

  const stale = await call('saccade_act', { kind: 'click', targetId: first.run.id, generation: first.generation });
  emit('stale', summary(stale));

  emit('restart-owner', {});
  await input.next();

  // The adapter's connection died with the old owner. The adapter sees that before it sends (the peer
  // closed, mcp §9) and connects again, so this batch reaches the new owner once: a harmless move.
  // (A batch already sent when a connection dies is never resent: McpScriptedServiceTest.)
  const lost = await call('saccade_act', { kind: 'move', targetId: first.run.id });
  emit('act-after-restart', summary(lost));

  const staleAcrossRestart = await call('saccade_act', { kind: 'click', targetId: first.run.id, generation: first.generation });
  emit('stale-after-restart', summary(staleAcrossRestart));

  // One more click on Run, which now closes the demo's window. Had the lost batch been replayed, it would
  // have closed that window already, and this click would open it again.
  // The demo's window may cover the Run button: raise gtk3-demo's main window first (WINDOW_ACTIVATE = 128).
  let settled = await windowsUntil(null, (s) => windows(s) >= click.windowsAfter);
  let raised = null;
  for (const deadline = Date.now() + EFFECT_DEADLINE_MS; Date.now() < deadline; ) {
    const main = settled.targets.find((t) => t.windowId === first.run.windowId && (t.capabilities & 128) !== 0);
    raised = await call('saccade_act', { kind: 'window', targetId: main.id, generation: settled.generation,
      verifyNextGeneration: true });
    if (raised.structuredContent?.resultText !== 'stale generation') {
      break;
    }
    settled = await windowsUntil(settled.generation, () => true);
  }
  emit('raise', summary(raised));
  // As the descriptions tell a model: a stale generation ran nothing; find the button again and retry.
  let again = await findRun();
  let second = null;
  let staleRetries = 0;
  for (const deadline = Date.now() + EFFECT_DEADLINE_MS; again.run && Date.now() < deadline; staleRetries++) {
    second = await clickAndAwaitWindow(again.run, again.generation, windows(settled));
    if (second.act.structured?.resultText !== 'stale generation') {
      break;
    }
    again = await findRun(again.generation); // a newer generation than the stale one
  }
  emit('click-after-restart', { ...second.act, structured: undefined, windowsBefore: windows(settled),
    windowsAfter: second.windowsAfter, generation: again.generation, staleRetries });

  await client.close();
  emit('done', {});
}
