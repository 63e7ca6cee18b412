// The agent task suite (issue 13 part 9), run by AgentTaskSuiteIT: tasks driven only through `saccade mcp`
// with the official MCP SDK client. Each task's policy reads what a model reads (the text block; ids come from
// its lines) — find, act, verify — and is verified from the application's own output or state (what zenity
// printed and its exit code, the X server's window list), never from our scene.
// Usage: node tasks.mjs <bin/saccade> <agent endpoint socket>. Prints one JSON line per task, then {"done":...}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn, execFileSync } from 'node:child_process';

const [launcher, endpoint] = process.argv.slice(2);
const client = new Client({ name: 'saccade-agent-tasks', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: launcher, args: ['mcp', '--endpoint', endpoint], stderr: 'inherit' }));

const KEY = { enter: 40, right: 79, left: 80, down: 81, up: 82, tab: 43, l: 15, a: 4, b: 5, c: 6 };
const CONTROL = 2;
const APP_DEADLINE_MS = 20000;

/** One task's bookkeeping: every tool call goes through it. */
class Run {
  constructor(name) {
    Object.assign(this, { name, calls: 0, waitCalls: 0, waiting: false, textBytes: [], stale: 0, staleAfterVerified: 0,
      lastVerified: false, rejections: [], generation: undefined });
  }
  async call(tool, args) {
    if (this.waiting) this.waitCalls++; else this.calls++;
    const r = await client.callTool({ name: tool, arguments: args });
    const text = r.content?.[0]?.text ?? '';
    if (tool !== 'saccade_act') {
      this.textBytes.push(Buffer.byteLength(text, 'utf8'));
    } else {
      if (r.structuredContent?.result === -3) {
        this.stale++;
        if (this.lastVerified && args.generation === this.lastNext) this.staleAfterVerified++;
      }
      this.lastVerified = args.verifyNextGeneration === true && !r.isError;
      this.lastNext = r.structuredContent?.nextGeneration?.generation;
      if (r.isError) this.rejections.push(args.kind + ': ' + text);
      if (this.lastNext) this.generation = this.lastNext;
    }
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
  return { generation, targets };
}

/** Observes the active window until `find` returns a target (or the deadline); returns {scene, target}. */
async function findIn(run, find, scope = { scope: 'active-window' }) {
  const deadline = Date.now() + APP_DEADLINE_MS;
  let after;
  while (Date.now() < deadline) {
    const { r, text } = await run.call('saccade_observe', after ? { ...scope, afterGeneration: after } : scope);
    if (!r.isError) {
      const scene = parse(text);
      run.generation = scene.generation;
      const target = find(scene.targets, scene);
      if (target) return { scene, target };
      after = scene.generation;
    } else if (!text.startsWith('Observation rejected: timeout')) {
      after = undefined;
    }
  }
  return { scene: null, target: null };
}

const byText = (text, word) => (ts) => ts.find((t) => t.text === text && (!word || t.words.includes(word)));

async function act(run, args) {
  const { r, text } = await run.call('saccade_act', args);
  return { ok: !r.isError, text, next: r.structuredContent?.nextGeneration?.generation, s: r.structuredContent };
}

/** Starts a program on the test desktop (this process's environment is the desktop's); collects its output. */
function start(command, args) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', code: null };
  child.stdout.on('data', (d) => { out.stdout += d; });
  child.stderr.on('data', () => {});
  out.exited = new Promise((resolve) => child.on('exit', (code) => { out.code = code; resolve(code); }));
  out.kill = () => { try { child.kill('SIGKILL'); } catch { /* gone */ } };
  return out;
}

async function exited(app) {
  const timer = new Promise((resolve) => setTimeout(resolve, APP_DEADLINE_MS, 'timeout'));
  const r = await Promise.race([app.exited, timer]);
  if (r === 'timeout') app.kill();
  return r !== 'timeout';
}

/** Titles of the X server's client windows (xprop: the application's own windows, not our scene). */
function windowTitles() {
  const list = execFileSync('xprop', ['-root', '_NET_CLIENT_LIST']).toString();
  const ids = list.match(/0x[0-9a-f]+/g) ?? [];
  return ids.map((id) => {
    try {
      return /= "(.*)"/.exec(execFileSync('xprop', ['-id', id, '_NET_WM_NAME']).toString())?.[1] ?? '';
    } catch { return ''; }
  });
}
function activeTitle() {
  const id = /0x[0-9a-f]+/.exec(execFileSync('xprop', ['-root', '_NET_ACTIVE_WINDOW']).toString())?.[0];
  return id ? (/= "(.*)"/.exec(execFileSync('xprop', ['-id', id, '_NET_WM_NAME']).toString())?.[1] ?? '') : '';
}
async function until(check) {
  for (const deadline = Date.now() + APP_DEADLINE_MS; Date.now() < deadline;) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

// A zenity dialog: start it, wait until its window is the active one in the scene, run `policy`, then compare
// what zenity printed and its exit code with what the task expects.
function zenity(name, args, title, policy, expectOut, expectCode = 0) {
  return async (run) => {
    const app = start('zenity', ['--title=' + title, ...args]);
    try {
      run.waiting = true;
      const { scene } = await findIn(run, (ts) => ts.find((t) => t.role === 'window' && t.text === title));
      run.waiting = false;
      if (!scene) return 'the dialog never appeared in the active window';
      await policy(run, scene);
      if (!(await exited(app))) return 'zenity did not exit';
      if (app.code !== expectCode) return `zenity exited ${app.code}, not ${expectCode}; printed ${JSON.stringify(app.stdout)}`;
      if (expectOut !== null && app.stdout.trim() !== expectOut) return `zenity printed ${JSON.stringify(app.stdout)}`;
      return null;
    } finally {
      app.kill();
    }
  };
}

/** Clicks the button with `label` in the active window (verified), by what the text view shows. */
async function clickButton(run, scene, label) {
  let target = scene.targets.find((t) => t.text === label && t.words.includes('click'));
  if (!target) ({ scene, target } = await findIn(run, byText(label, 'click')));
  if (!target) return null;
  return act(run, { kind: 'click', targetId: target.id, generation: run.generation, verifyNextGeneration: true });
}

async function key(run, usage, modifiers = 0) {
  return act(run, { kind: modifiers ? 'key-chord' : 'key', keyUsage: usage, modifiers, verifyNextGeneration: true });
}

async function typeInto(run, scene, text) {
  const editable = (t) => t.words.includes('text') && !t.words.includes('secure');
  const pick = (ts) => ts.find((t) => t.role === 'text-field' && editable(t)) ?? ts.find(editable);
  let field = pick(scene.targets);
  if (!field) field = (await findIn(run, pick)).target; // the dialog's controls may come a generation later
  if (!field) { run.notes = (run.notes ?? []).concat(['no text field in the view']); return null; }
  run.notes = (run.notes ?? []).concat([`typed into ${field.role} "${field.text}" ${field.words.join(' ')}`]);
  return act(run, { kind: 'text', targetId: field.id, generation: run.generation, text, verifyNextGeneration: true });
}

const tasks = [
  ['zenity entry: type a line, OK', zenity('entry', ['--entry', '--text=Your name'], 'T entry',
    async (run, s) => { await typeInto(run, s, 'hello saccade'); await clickButton(run, s, 'OK'); }, 'hello saccade')],
  ['zenity entry: prefilled, Cancel', zenity('entry-cancel', ['--entry', '--entry-text=keep'], 'T cancel',
    async (run, s) => { await clickButton(run, s, 'Cancel'); }, '', 1)],
  ['zenity entry: Enter key accepts', zenity('entry-enter', ['--entry', '--entry-text=abc'], 'T enter',
    async (run) => { await key(run, KEY.enter); }, 'abc')],
  ['zenity password: type by keys', zenity('password', ['--password'], 'T password',
    async (run) => { await key(run, KEY.a); await key(run, KEY.b); await key(run, KEY.enter); }, 'ab')],
  ['zenity question: Yes', zenity('question-yes', ['--question', '--text=Proceed?'], 'T yes',
    async (run, s) => { await clickButton(run, s, 'Yes'); }, '', 0)],
  ['zenity question: No', zenity('question-no', ['--question', '--text=Proceed?'], 'T no',
    async (run, s) => { await clickButton(run, s, 'No'); }, '', 1)],
  ['zenity list: pick banana', zenity('list', ['--list', '--column=Fruit', 'apple', 'banana', 'cherry'], 'T list',
    async (run, s) => {
      const { scene, target } = await findIn(run, byText('banana', 'click'));
      if (target) await act(run, { kind: 'click', targetId: target.id, generation: scene.generation, verifyNextGeneration: true });
      await clickButton(run, scene ?? s, 'OK');
    }, 'banana')],
  ['zenity checklist: tick b', zenity('checklist', ['--list', '--checklist', '--column=Pick', '--column=Item',
    'FALSE', 'a', 'FALSE', 'b'], 'T checklist',
    async (run, s) => {
      const { scene, target } = await findIn(run, byText('b', 'click'));
      if (target) {
        // The check cell is the row's first column, left of the item's text.
        const check = scene.targets.find((t) => t.words.includes('click') && Math.abs(t.y - target.y) < 4 && t.x < target.x);
        await act(run, { kind: 'click', targetId: (check ?? target).id, generation: scene.generation, verifyNextGeneration: true });
      }
      await clickButton(run, scene ?? s, 'OK');
    }, 'b')],
  ['zenity scale: one step right', zenity('scale', ['--scale', '--value=50', '--text=Level'], 'T scale',
    async (run, s) => { await key(run, KEY.right); await clickButton(run, s, 'OK'); }, '51')],
  ['zenity calendar: next day', zenity('calendar', ['--calendar', '--day=14', '--month=3', '--year=2025',
    '--date-format=%Y-%m-%d'], 'T calendar',
    async (run, s) => { await key(run, KEY.right); await clickButton(run, s, 'OK'); }, '2025-03-15')],
  ['zenity file chooser: typed path', zenity('file', ['--file-selection'], 'T file',
    async (run) => {
      await key(run, KEY.l, CONTROL);
      const { scene } = await findIn(run, (ts) => ts.find((t) => t.role === 'text-field' && t.words.includes('text')));
      if (scene) await typeInto(run, scene, '/etc/hostname');
      await key(run, KEY.enter);
    }, '/etc/hostname')],
  ['gtk3-demo: run Button Boxes', async (run) => {
    // Select the demo in the list, then Run it right away on the verified generation: never stale.
    const { scene, target } = await findIn(run, (ts) => ts.find((t) => t.text === 'Button Boxes' && t.words.includes('click')),
      { scope: 'desktop', maximumTargets: 1000 });
    if (!target) return 'no Button Boxes row in the text view';
    const selected = await act(run, { kind: 'click', targetId: target.id, generation: scene.generation, verifyNextGeneration: true });
    if (!selected.ok) return 'selecting failed: ' + selected.text;
    const { r, text } = await run.call('saccade_query', { text: 'Run', generation: selected.next });
    const runButton = parse(text).targets.find((t) => t.text === 'Run');
    if (r.isError || !runButton) return 'no Run button in generation ' + selected.next + ': ' + text.slice(0, 200);
    const ran = await act(run, { kind: 'click', targetId: runButton.id, generation: selected.next, verifyNextGeneration: true });
    if (!ran.ok) return 'Run was rejected on the verified generation: ' + ran.text;
    return (await until(() => windowTitles().includes('Button Boxes'))) ? null : 'no Button Boxes window: ' + windowTitles();
  }],
  ['window switching: activate gtk3-demo', async (run) => {
    const app = start('zenity', ['--title=T front', '--info', '--text=in front']);
    try {
      run.waiting = true;
      await findIn(run, (ts) => ts.find((t) => t.role === 'window' && t.text === 'T front'));
      run.waiting = false;
      const { scene, target } = await findIn(run, (ts) => ts.find((t) => t.role === 'window' && t.words.includes('window')
        && t.text !== 'T front' && t.text !== ''), { scope: 'desktop', maximumTargets: 1000 });
      if (!target) return 'no other window in the text view';
      const done = await act(run, { kind: 'window', targetId: target.id, generation: scene.generation, verifyNextGeneration: true });
      if (!done.ok) return 'window activation rejected: ' + done.text;
      return (await until(() => activeTitle() === target.text)) ? null : `active window is '${activeTitle()}', not '${target.text}'`;
    } finally {
      app.kill();
    }
  }],
];

/** The grid cell's label holding pixel (x, y), from the text view's grid line ("N grid cells of about WxH"). */
function cellAt(text, x, y) {
  const m = /grid cells of about (\d+)x(\d+)/.exec(text);
  return m ? `r${Math.floor(y / +m[2])}c${Math.floor(x / +m[1])}` : null;
}

tasks.push(
  ['zenity info: OK', zenity('info', ['--info', '--text=Done'], 'T info',
    async (run, s) => { await clickButton(run, s, 'OK'); }, '', 0)],
  ['zenity warning: OK', zenity('warning', ['--warning', '--text=Careful'], 'T warning',
    async (run, s) => { await clickButton(run, s, 'OK'); }, '', 0)],
  ['zenity forms: one entry', zenity('forms', ['--forms', '--text=Who', '--add-entry=Name'], 'T forms',
    async (run, s) => { await typeInto(run, s, 'bob'); await clickButton(run, s, 'OK'); }, 'bob')],
  ['zenity text-info: edit', zenity('text-info', ['--text-info', '--editable'], 'T text',
    async (run, s) => { await typeInto(run, s, 'notes'); await clickButton(run, s, 'OK'); }, 'notes')],
  ['zenity radiolist: pick two', zenity('radiolist', ['--list', '--radiolist', '--column=Pick', '--column=Item',
    'TRUE', 'one', 'FALSE', 'two'], 'T radio',
    async (run, s) => {
      const { scene, target } = await findIn(run, byText('two', 'click'));
      if (target) await act(run, { kind: 'click', targetId: target.id, generation: scene.generation, verifyNextGeneration: true });
      await clickButton(run, scene ?? s, 'OK');
    }, 'two')],
  ['drag: zenity scale slider to its right end', zenity('scale-drag', ['--scale', '--value=10', '--text=Drag me'], 'T drag',
    async (run) => {
      // The slider's bounds from the text view; the drag goes between the grid cells under its two ends.
      const { scene, target: slider } = await findIn(run, (ts) => ts.find((t) => t.role === 'slider'));
      if (!slider) { run.notes = ['no slider in the view']; return; }
      const first = parse((await run.call('saccade_query', { text: 'r0c0' })).text).targets[0];
      if (!first) { run.notes = ['no grid cell r0c0']; return; }
      const from = { x: slider.x + Math.round(slider.w * 0.1), y: slider.y + Math.floor(slider.h / 2) };
      const to = { x: slider.x + slider.w - 2, y: from.y };
      const ids = [];
      for (const p of [from, to]) {
        const label = `r${Math.floor(p.y / first.h)}c${Math.floor(p.x / first.w)}`;
        ids.push(parse((await run.call('saccade_query', { text: label })).text).targets[0]?.id);
      }
      if (!ids[0] || !ids[1]) { run.notes = ['grid cells not found']; return; }
      await act(run, { kind: 'drag', targetId: ids[0], secondaryTargetId: ids[1], generation: scene.generation,
        xQ8: from.x * 256, yQ8: from.y * 256, secondaryXQ8: to.x * 256, secondaryYQ8: to.y * 256, verifyNextGeneration: true });
      await key(run, KEY.enter);
    }, '100')],
);

tasks.push(
  ['zenity entry: type, then Enter', zenity('entry-type-enter', ['--entry', '--text=City'], 'T type enter',
    async (run, s) => { await typeInto(run, s, 'Oslo'); await key(run, KEY.enter); }, 'Oslo')],
  ['zenity question: custom label', zenity('question-label', ['--question', '--ok-label=Proceed', '--cancel-label=Stop',
    '--text=Go?'], 'T label', async (run, s) => { await clickButton(run, s, 'Stop'); }, '', 1)],
  ['zenity list: two rows with control', zenity('multi', ['--list', '--multiple', '--column=Item', 'red', 'green', 'blue'],
    'T multi', async (run, s) => {
      const { scene, target } = await findIn(run, byText('red', 'click'));
      if (!target) return;
      const blue = scene.targets.find((t) => t.text === 'blue' && t.words.includes('click'));
      await act(run, { kind: 'click', targetId: target.id, generation: scene.generation, verifyNextGeneration: true });
      if (blue) await act(run, { kind: 'click', targetId: blue.id, generation: run.generation, modifiers: CONTROL, verifyNextGeneration: true });
      await clickButton(run, scene, 'OK');
    }, 'red|blue')],
  ['zenity scale: three steps left', zenity('scale-left', ['--scale', '--value=20', '--text=Lower'], 'T scale left',
    async (run, s) => { for (let i = 0; i < 3; i++) await key(run, KEY.left); await clickButton(run, s, 'OK'); }, '17')],
);

const rows = [];
for (const [name, task] of tasks) {
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
    rejections: run.rejections.concat(run.notes ?? []),
    observations: run.textBytes.length, textBytes: run.textBytes.reduce((a, b) => a + b, 0),
    medianTextBytes: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0,
    stale: run.stale, staleAfterVerified: run.staleAfterVerified, wallMs: Date.now() - startMs };
  rows.push(row);
  process.stdout.write(JSON.stringify(row) + '\n');
}
await client.close();
process.stdout.write(JSON.stringify({ done: rows.length }) + '\n');
process.exit(0);
