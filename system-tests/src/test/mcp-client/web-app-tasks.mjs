// The web and terminal task suite, run by WebAppTaskSuiteIT: tasks in Chromium, Firefox and xterm driven only
// through `saccade mcp` with the official MCP SDK client. Each policy reads what a model reads (the text block;
// ids come from its lines) and is verified from the application's side: what this script's HTTP server on
// 127.0.0.1 received from the browser, what the shell in xterm wrote — never from our scene.
// Usage: node web-app-tasks.mjs <bin/saccade> <agent endpoint socket> <scratch dir>.
// Prints one JSON line per task, then {"done":...}. TASKS_ONLY (a regular expression) runs only matching tasks.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [launcher, endpoint, scratch] = process.argv.slice(2);
const ONLY = process.env.TASKS_ONLY ? new RegExp(process.env.TASKS_ONLY) : null;
const client = new Client({ name: 'saccade-web-app-tasks', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: launcher, args: ['mcp', '--endpoint', endpoint], stderr: 'inherit' }));

const KEY = { enter: 40, end: 77 };
const APP_DEADLINE_MS = 30000;

// ---------------------------------------------------------------- the local web server (the proof)

/** What the browser asked for: method, path, query and body of every request but the page's own polling. */
const received = [];
/** The page the browser should show: each page polls /control and goes there when it changes. */
let current = '/blank';
const PAGE_SCRIPT = `<script>setInterval(async () => { try { const r = await fetch('/control');
  const next = await r.text(); if (next && next !== location.pathname) location.href = next; } catch (e) {} }, 150);</script>`;
const page = (title, body) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>`
  + `<body style="font: 16px sans-serif">${body}${PAGE_SCRIPT}</body></html>`;
const PAGES = {
  '/blank': page('Waiting', '<p>Waiting for the next task.</p>'),
  '/order': page('Order form', `<header><h1>Order</h1></header><nav><a href="/about">About us</a></nav><main>
    <form method="post" action="/submit">
    <p><label>Name <input name="name" type="text"></label></p>
    <p><label>Notes <textarea name="notes"></textarea></label></p>
    <p><label>Size <select name="size"><option>Small</option><option selected>Medium</option><option>Large</option></select></label></p>
    <p><label><input type="checkbox" name="gift"> Gift wrap</label></p>
    <p><button type="submit">Place order</button></p></form></main>`),
  '/size': page('Pick a size', `<main><h1>Size</h1><form method="post" action="/submit">
    <p><label>Size <select name="size"><option>Small</option><option selected>Medium</option><option>Large</option></select></label></p>
    <p><button type="submit">Save size</button></p></form></main>`),
  '/links': page('Links', `<nav><ul><li><a href="/pricing">Pricing</a></li><li><a href="/contact">Contact</a></li>
    <li><a href="/jobs">Jobs</a></li></ul></nav><main><h1>Links</h1><p>Pick one.</p></main>`),
  '/long': page('Long page', `<main><h1>A long page</h1>${'<p>Filler paragraph to scroll past.</p>'.repeat(60)}
    <form method="get" action="/more"><button type="submit">Load more</button></form></main>`),
  '/search': page('Search', `<main><h1>Search</h1><form method="get" action="/find">
    <label>Query <input name="q" type="search"></label></form></main>`),
  '/agree': page('Terms', `<main><h1>Terms</h1><form method="post" action="/submit">
    <p><label><input type="checkbox" name="agree"> I agree to the terms</label></p>
    <p><button type="submit">Continue</button></p></form></main>`),
};
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (url.pathname === '/control') { res.end(current); return; }
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', () => {
    if (url.pathname !== '/favicon.ico') {
      received.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams),
        form: Object.fromEntries(new URLSearchParams(body)) });
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(PAGES[url.pathname] ?? page('Done', '<p>Received.</p>'));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

// ---------------------------------------------------------------- bookkeeping and the text view

/** One task's bookkeeping: every tool call goes through it (the columns of AgentTaskSuiteIT's table). */
class Run {
  constructor(name) {
    Object.assign(this, { name, calls: 0, waitCalls: 0, waiting: false, textBytes: [], stale: 0, staleAfterVerified: 0,
      lastVerified: false, rejections: [], generation: undefined, scene: null, blind: 0 });
  }
  async call(tool, args) {
    if (this.waiting) this.waitCalls++; else this.calls++;
    const r = await client.callTool({ name: tool, arguments: args });
    const text = r.content?.[0]?.text ?? '';
    if (tool !== 'saccade_act') {
      this.textBytes.push(Buffer.byteLength(text, 'utf8'));
      return { r, text };
    }
    const at = text.indexOf('The active window now:\n');
    if (at >= 0) {
      const after = text.slice(at + 'The active window now:\n'.length);
      this.textBytes.push(Buffer.byteLength(after, 'utf8'));
      this.scene = parse(after);
    }
    if (r.structuredContent?.result === -3) {
      this.stale++;
      if (this.lastVerified && args.generation === this.lastNext) this.staleAfterVerified++;
    }
    this.lastVerified = args.verifyNextGeneration === true && !r.isError;
    this.lastNext = r.structuredContent?.nextGeneration?.generation;
    if (r.isError) this.rejections.push(args.kind + ': ' + text.split('\n')[0]);
    if (this.lastNext) this.generation = this.lastNext;
    if (at >= 0 && this.scene.generation) this.generation = this.scene.generation;
    return { r, text };
  }
}

/** The lines of a text view as targets: id, role, text, bounds, words (actions and flags), and the window title. */
function parse(text) {
  const targets = [];
  let window = null;
  let generation = null;
  for (const line of text.split('\n')) {
    const g = /^generation (\d+) /.exec(line);
    if (g) { generation = g[1]; continue; }
    const m = /^( *)(\d+) (\S+)(?: "((?:[^"\\]|\\.)*)")? (-?\d+),(-?\d+) (\d+)x(\d+)(.*)$/.exec(line);
    if (!m) continue;
    const t = { id: m[2], role: m[3], text: (m[4] ?? '').replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c)),
      x: +m[5], y: +m[6], w: +m[7], h: +m[8], words: m[9].trim().split(/\s+/).filter(Boolean) };
    if (m[1] === '') window = t;
    t.window = m[1] === '' ? t.text : window?.text;
    targets.push(t);
  }
  return { generation, targets, text };
}

/** Observes the active window until `find` returns a target (or the deadline); returns {scene, target}. */
async function findIn(run, find, waitMs = APP_DEADLINE_MS) {
  const deadline = Date.now() + waitMs;
  let after;
  while (Date.now() < deadline) {
    const { r, text } = await run.call('saccade_observe', after ? { scope: 'active-window', afterGeneration: after }
      : { scope: 'active-window' });
    if (!r.isError) {
      const scene = parse(text);
      run.generation = scene.generation;
      run.scene = scene;
      const target = find(scene.targets, scene);
      if (target) return { scene, target };
      after = scene.generation;
    } else if (!text.startsWith('Observation rejected: timeout')) {
      // no active window yet (the app is starting): poll again shortly
      after = undefined;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { scene: null, target: null };
}

/** A target in the newest scene the task read, else by observing until it shows. */
async function find(run, pred) {
  const t = run.scene ? pred(run.scene.targets) : undefined;
  return t ? { scene: run.scene, target: t } : findIn(run, pred);
}

/**
 * One action; refused as stale (the page was still settling) it observes again and retries once, and when the
 * deadline passed with nothing run (the field took the focus late) it tries once more, as a model would.
 */
async function act(run, args) {
  const { r, text } = await run.call('saccade_act', { observeAfter: true, ...args });
  if (r.isError && /nothing ran; try again/.test(text)) {
    const again = await run.call('saccade_act', { observeAfter: true, ...args, generation: args.generation && run.generation });
    return { ok: !again.r.isError, text: again.text };
  }
  if (r.structuredContent?.result === -3 && args.generation && args.targetId) {
    const { target } = await findIn(run, (ts) => ts.find((t) => t.id === args.targetId));
    if (target) {
      const again = await run.call('saccade_act', { observeAfter: true, ...args, generation: run.generation });
      return { ok: !again.r.isError, text: again.text };
    }
  }
  return { ok: !r.isError, text };
}

/** Acts on the target `pred` picks in the newest scene; a failure text, or null. */
async function on(run, what, pred, args) {
  let { target } = await find(run, pred);
  if (!target) return `no ${what} in the text view`;
  let done = await act(run, { targetId: target.id, generation: run.generation, verifyNextGeneration: true, ...args });
  if (/Nothing changed/.test(done.text)) {
    // what the reply asks: observe, then repeat once (Firefox ignores input to a page in its first frames:
    // its dom.input_events.security settings)
    ({ target } = await findIn(run, pred, 5000));
    if (!target) return `no ${what} in the text view after a click that changed nothing`;
    done = await act(run, { targetId: target.id, generation: run.generation, verifyNextGeneration: true, ...args });
  }
  return done.ok || /timeout/.test(done.text) ? null : `${args.kind} on ${what} refused: ${done.text.split('\n')[0]}`;
}

/**
 * A key to the focused control of the active window, typed after a scene that showed where it goes (a focused
 * target, or an active window that takes text itself); otherwise it counts as typed blind.
 */
async function key(run, usage, verify = true) {
  const ts = run.scene?.targets ?? [];
  if (!ts.some((t) => t.words.includes('focused')) && !(ts[0]?.role === 'window' && ts[0].words.includes('text'))) {
    run.blind++;
  }
  const done = await act(run, { kind: 'key', keyUsage: usage, verifyNextGeneration: verify });
  return done.ok || /timeout/.test(done.text) ? null : 'key refused: ' + done.text.split('\n')[0];
}

const field = (label) => (ts) => ts.find((t) => t.role === 'text-field' && t.text === label && t.words.includes('text'));
const named = (role, text) => (ts) => ts.find((t) => t.role === role && t.text === text && t.words.includes('click'));

/** Polls `check` (a failure text or null) until it holds or the deadline. */
async function until(check) {
  let failure = 'never checked';
  for (const deadline = Date.now() + APP_DEADLINE_MS; Date.now() < deadline;) {
    failure = check();
    if (!failure) return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return failure;
}

/** What the server received at `path` since the task began, checked by `expect`. */
function serverGot(since, path, expect) {
  return until(() => {
    const got = received.slice(since).filter((r) => r.path === path);
    if (!got.length) return `the server received no ${path} (got ${received.slice(since).map((r) => r.path).join(', ')})`;
    return expect(got[got.length - 1]);
  });
}

const same = (want) => (got) => {
  const data = { ...got.query, ...got.form };
  for (const [k, v] of Object.entries(want)) if (data[k] !== v) return `the server received ${JSON.stringify(data)}`;
  for (const k of Object.keys(data)) if (!(k in want)) return `the server received ${JSON.stringify(data)}`;
  return null;
};

// ---------------------------------------------------------------- the browsers

function chromium(url) {
  const dir = join(scratch, 'chromium');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return spawn('chromium', ['--no-sandbox', '--test-type', `--user-data-dir=${dir}`, '--disable-gpu', '--disable-quic',
    '--no-first-run', '--no-default-browser-check', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--disable-features=Translate', '--password-store=basic', url], { stdio: 'ignore' });
}

function firefox(url) {
  const dir = join(scratch, 'firefox');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A fresh profile that opens only our page: no welcome tab, data-reporting bar, default-browser check or updates.
  writeFileSync(join(dir, 'user.js'), [
    ['browser.startup.homepage_override.mstone', '"ignore"'], ['startup.homepage_welcome_url', '""'],
    ['startup.homepage_welcome_url.additional', '""'], ['browser.aboutwelcome.enabled', 'false'],
    ['datareporting.policy.dataSubmissionEnabled', 'false'], ['toolkit.telemetry.reportingpolicy.firstRun', 'false'],
    ['datareporting.policy.dataSubmissionPolicyBypassNotification', 'true'], ['browser.shell.checkDefaultBrowser', 'false'],
    ['app.update.auto', 'false'], ['browser.tabs.warnOnClose', 'false'], ['network.captive-portal-service.enabled', 'false'],
    ['browser.safebrowsing.malware.enabled', 'false'], ['browser.safebrowsing.phishing.enabled', 'false'],
  ].map(([k, v]) => `user_pref("${k}", ${v});`).join('\n') + '\n');
  return spawn('firefox-esr', ['--no-remote', '-profile', dir, url], { stdio: 'ignore' });
}

/** Shows `path` in the running browser and waits (uncounted) until the active window shows its page with `ready`. */
async function open(run, path, ready) {
  current = path;
  const title = /<title>([^<]*)</.exec(PAGES[path])[1];
  run.waiting = true;
  const { target } = await findIn(run, (ts) => ts.some((t) => t.role === 'window' && t.text.startsWith(title + ' '))
    && ready(ts));
  run.waiting = false;
  return target ? null : `the page ${path} never showed in the active window`;
}

/** The browser tasks: the same five in each browser. */
function browserTasks(name) {
  return [
    [`${name}: fill the order form and submit`, async (run) => {
      const since = received.length;
      return await open(run, '/order', field('Name'))
        ?? await on(run, 'the Name field', field('Name'), { kind: 'text', text: 'Ada Lovelace' })
        ?? await on(run, 'the Notes field', field('Notes'), { kind: 'text', text: 'two copies' })
        ?? await on(run, 'the size select', (ts) => ts.find((t) => t.role === 'combo-box' && t.text === 'Medium'),
          { kind: 'click' })
        ?? await on(run, 'the Large option', (ts) => ts.find((t) => t.text === 'Large' && t.words.includes('click')),
          { kind: 'click' })
        ?? await on(run, 'the Gift wrap checkbox', (ts) => ts.find((t) => t.role === 'checkbox' && t.text === 'Gift wrap'),
          { kind: 'click' })
        ?? await on(run, 'the Place order button', named('button', 'Place order'), { kind: 'click' })
        ?? await serverGot(since, '/submit', same({ name: 'Ada Lovelace', notes: 'two copies', size: 'Large', gift: 'on' }));
    }],
    [`${name}: choose a size and save`, async (run) => {
      const since = received.length;
      const select = (ts) => ts.find((t) => t.role === 'combo-box' && t.text === 'Medium');
      const small = (ts) => ts.find((t) => t.text === 'Small' && t.words.includes('click'));
      return await open(run, '/size', named('button', 'Save size'))
        ?? await on(run, 'the size select', select, { kind: 'click' })
        ?? await on(run, 'the Small option', small, { kind: 'click' })
        ?? await on(run, 'the Save size button', named('button', 'Save size'), { kind: 'click' })
        ?? await serverGot(since, '/submit', same({ size: 'Small' }));
    }],
    [`${name}: follow the Contact link`, async (run) => {
      const since = received.length;
      return await open(run, '/links', named('link', 'Contact'))
        ?? await on(run, 'the Contact link', named('link', 'Contact'), { kind: 'click' })
        ?? await serverGot(since, '/contact', () => null);
    }],
    [`${name}: scroll to the bottom and load more`, async (run) => {
      const since = received.length;
      const err = await open(run, '/long', (ts) => ts.find((t) => t.role === 'heading' && t.text === 'A long page'));
      if (err) return err;
      // the button is below the window: the page takes End, then the button is in the view
      if (!run.scene.targets.some((t) => t.text === 'Load more')) {
        const k = await key(run, KEY.end);
        if (k) return k;
      }
      return await on(run, 'the Load more button', named('button', 'Load more'), { kind: 'click' })
        ?? await serverGot(since, '/more', () => null);
    }],
    [`${name}: search by typing and Enter`, async (run) => {
      const since = received.length;
      return await open(run, '/search', (ts) => ts.find((t) => t.role === 'text-field' && t.words.includes('text')
        && t.y > 150))
        ?? await on(run, 'the Query field', (ts) => ts.find((t) => t.role === 'text-field' && t.words.includes('text')
          && t.y > 150), { kind: 'text', text: 'saccade' })
        ?? await key(run, KEY.enter)
        ?? await serverGot(since, '/find', same({ q: 'saccade' }));
    }],
  ];
}

/** Runs `tasks` with one browser started for all of them; the browser is killed afterwards. */
async function inBrowser(start, tasks) {
  current = '/blank';
  const browser = start(`${base}/blank`);
  try {
    for (const [name, task] of tasks) await runTask(name, task);
  } finally {
    browser.kill('SIGKILL');
  }
}

// ---------------------------------------------------------------- the terminal

/** xterm with a shell: the agent types a command into the terminal window; the shell's file is the proof. */
function xtermTask(command, file, expect) {
  return async (run) => {
    const out = join(scratch, file);
    // its own title: the last task's terminal, killed, may still be in the scene a moment
    const title = `Terminal ${file}`;
    const term = spawn('xterm', ['-title', title, '-e', 'sh'], { stdio: 'ignore', cwd: scratch });
    try {
      run.waiting = true;
      const { target } = await findIn(run, (ts) => ts.find((t) => t.role === 'window' && t.text === title));
      run.waiting = false;
      if (!target) return 'no terminal window in the active window';
      if (!target.words.includes('text')) return `the terminal window takes no text: ${target.words.join(' ')}`;
      // a terminal's text publishes no new generation (no accessible tree): the shell's file is the verification
      const typed = await act(run, { kind: 'text', targetId: target.id, generation: run.generation,
        text: command.replace('FILE', out) });
      if (!typed.ok) return 'typing refused: ' + typed.text.split('\n')[0];
      return await key(run, KEY.enter, false)
        ?? await until(() => (existsSync(out) && readFileSync(out, 'utf8').trim() === expect ? null
          : `the shell wrote ${existsSync(out) ? JSON.stringify(readFileSync(out, 'utf8')) : 'nothing'}`));
    } finally {
      term.kill('SIGKILL');
    }
  };
}

// ---------------------------------------------------------------- the run

const rows = [];
async function runTask(name, task) {
  if (ONLY && !ONLY.test(name)) return;
  const run = new Run(name);
  const startMs = Date.now();
  let failure;
  try {
    failure = await task(run);
  } catch (e) {
    failure = 'threw: ' + (e?.stack ?? e);
  }
  const sorted = [...run.textBytes].sort((a, b) => a - b);
  const row = { task: name, passed: !failure, failure: failure ?? null, calls: run.calls, waitCalls: run.waitCalls,
    rejections: run.rejections, observations: run.textBytes.length, textBytes: run.textBytes.reduce((a, b) => a + b, 0),
    medianTextBytes: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0,
    stale: run.stale, staleAfterVerified: run.staleAfterVerified, blind: run.blind, wallMs: Date.now() - startMs };
  rows.push(row);
  process.stdout.write(JSON.stringify(row) + '\n');
}

const browsers = [['Chromium', chromium], ['Firefox', firefox]];
for (const [name, start] of browsers) {
  const tasks = browserTasks(name).filter(([n]) => !ONLY || ONLY.test(n));
  if (tasks.length) await inBrowser(start, tasks);
}
await runTask('xterm: echo into a file', xtermTask('echo hello > FILE', 'echo.txt', 'hello'));
await runTask('xterm: count lines with wc', xtermTask('printf "a\\nb\\nc\\n" | wc -l > FILE', 'wc.txt', '3'));
server.close();
await client.close();
process.stdout.write(JSON.stringify({ done: rows.length }) + '\n');
process.exit(0);
