// The native application task suite, run by NativeAppTaskSuiteIT: tasks in gnome-calculator and gnome-text-editor
// (GTK 4) and LibreOffice Writer and Calc (the GTK 3 VCL plugin), driven only through `saccade mcp` with the official
// MCP SDK client. A policy reads what a model reads (the text view; ids come from its lines) and acts on a target id,
// or sends a key to the focused target after a view that showed it (never blind: without one the task fails). Each
// task is verified from the application's own output: what it copied to the clipboard (read with xclip), the file it
// saved.
// Usage: node native-app-tasks.mjs <bin/saccade> <agent endpoint socket> <scratch dir>.
// Prints one JSON line per task, then {"done":...}. TASKS_ONLY (a regular expression) runs only matching tasks;
// every view a task read is appended to native-app-views.log in the working directory, for reading a failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [launcher, endpoint, scratch] = process.argv.slice(2);
const ONLY = process.env.TASKS_ONLY ? new RegExp(process.env.TASKS_ONLY) : null;
const VIEWS = 'native-app-views.log';
writeFileSync(VIEWS, '');
const client = new Client({ name: 'saccade-native-app-tasks', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: launcher, args: ['mcp', '--endpoint', endpoint], stderr: 'inherit' }));

const USAGE = { a: 4, c: 6, s: 22, w: 26, enter: 40 };
const CONTROL = 2;
// LibreOffice's first window on a fresh profile takes long on a loaded machine
const WAIT_MS = 90000;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- what a model reads

/** A text view's targets: one object a line under the `generation` line (id, role, text, bounds, words). */
function readView(text) {
  const view = { generation: /^generation (\d+)/m.exec(text)?.[1], targets: [], text };
  const line = /^( *)(\d+) (\S+)(?: "((?:[^"\\]|\\.)*)")? (-?\d+),(-?\d+) (\d+)x(\d+)(.*)$/gm;
  for (const [, indent, id, role, quoted, x, y, w, h, rest] of text.matchAll(line)) {
    view.targets.push({ id, role, top: indent === '', x: +x, y: +y, w: +w, h: +h, words: rest.trim().split(/\s+/),
      text: (quoted ?? '').replace(/\\(.)/g, (_, c) => ({ n: '\n', t: '\t' }[c] ?? c)) });
  }
  return view;
}

/** Every call of a task goes through its Tally: calls, text bytes a view, stale rejections. */
class Tally {
  constructor(name) {
    this.name = name;
    this.counts = { calls: 0, waitCalls: 0, stale: 0, staleAfterVerified: 0 };
    this.bytes = [];
    this.rejections = [];
    this.view = null;
    this.waiting = false;
    this.verifiedNext = null;
  }

  /** Calls a tool; the view it returned (an observe's, or an act's after-scene) becomes the task's newest. */
  async tool(name, args) {
    this.counts[this.waiting ? 'waitCalls' : 'calls'] += 1;
    if (this.maximumTextBytes) args = { ...args, maximumTextBytes: this.maximumTextBytes };
    if (this.maximumTargets && name === 'saccade_observe') args = { ...args, maximumTargets: this.maximumTargets };
    const result = await client.callTool({ name, arguments: args });
    const text = result.content?.[0]?.text ?? '';
    const marker = 'The active window now:\n';
    const viewText = name === 'saccade_act' ? (text.includes(marker) ? text.slice(text.indexOf(marker) + marker.length) : null)
      : (result.isError ? null : text);
    if (viewText !== null) {
      this.bytes.push(Buffer.byteLength(viewText, 'utf8'));
      this.view = readView(viewText);
      appendFileSync(VIEWS, `== ${this.name}: ${name} ${JSON.stringify(args).slice(0, 200)}\n${viewText}\n`);
    } else if (name !== 'saccade_act') {
      this.bytes.push(Buffer.byteLength(text, 'utf8'));
    }
    if (name === 'saccade_act') this.afterAct(args, result, text);
    return { result, text };
  }

  afterAct(args, result, text) {
    const s = result.structuredContent ?? {};
    if (s.result === -3) {
      this.counts.stale += 1;
      if (this.verifiedNext !== null && args.generation === this.verifiedNext) this.counts.staleAfterVerified += 1;
    }
    this.verifiedNext = args.verifyNextGeneration && !result.isError ? s.nextGeneration?.generation ?? null : null;
    if (result.isError) this.rejections.push(`${args.kind}: ${text.split('\n')[0]}`);
    appendFileSync(VIEWS, `-- ${args.kind} -> ${text.split('\n')[0]}\n`);
  }

  row(failure, wallMs) {
    const sorted = [...this.bytes].sort((p, q) => p - q);
    return { task: this.name, passed: !failure, failure: failure ?? null, ...this.counts, rejections: this.rejections,
      observations: this.bytes.length, textBytes: sorted.reduce((p, q) => p + q, 0),
      medianTextBytes: sorted.length ? sorted[(sorted.length - 1) >> 1] : 0, effects: [], wallMs };
  }
}

/**
 * The target `pick` finds in the task's newest view; otherwise observes the active window (each observe waits for a
 * newer generation than the last) until it shows or `ms` pass. Waiting for the app does not count as the policy's calls.
 */
async function seek(tally, pick, { waiting = false, ms = 30000 } = {}) {
  const inView = tally.view && pick(tally.view.targets);
  if (inView) return inView;
  tally.waiting = waiting;
  try {
    let newer;
    for (const end = Date.now() + ms; Date.now() < end;) {
      const { result, text } = await tally.tool('saccade_observe', newer ? { scope: 'active-window', afterGeneration: newer }
        : { scope: 'active-window' });
      if (result.isError && !/timeout/.test(text)) {
        newer = undefined; // no active window yet: the app is still starting
        await pause(250);
        continue;
      }
      if (result.isError) continue;
      newer = tally.view.generation;
      const found = pick(tally.view.targets);
      if (found) return found;
    }
    return null;
  } finally {
    tally.waiting = false;
  }
}

/**
 * One action with the after-scene; a failure text or null. A verification timeout with the action run is fine; a
 * deadline that passed with nothing run is tried once more, on the newest view's generation, as a model would.
 */
async function act(tally, args) {
  const ask = { observeAfter: true, verifyNextGeneration: true, ...args };
  let { result, text } = await tally.tool('saccade_act', ask);
  if (result.isError && /nothing ran/.test(text)) {
    ({ result, text } = await tally.tool('saccade_act', { ...ask, generation: args.generation && tally.view?.generation }));
  }
  if (!result.isError || /The action ran/.test(text)) return null;
  return `${args.kind} refused: ${text.split('\n')[0]}`;
}

/** Acts on the target `pick` finds (by id, on its view's generation); refused as stale, reads the window again once. */
async function onTarget(tally, what, pick, args) {
  let failure = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    const target = await seek(tally, pick);
    if (!target) return `no ${what} in the text view`;
    failure = await act(tally, { targetId: target.id, generation: tally.view.generation, ...args });
    if (!failure || !/stale generation/.test(failure)) return failure;
    tally.view = null; // the window changed since that view: observe it again
  }
  return failure;
}

/** A key or chord to the focused target, sent only after a view that showed one: the policy never types blind. */
async function press(tally, usage, modifiers = 0) {
  if (!tally.view?.targets.some((t) => t.words.includes('focused'))) return 'no focused target in the view: a key would go blind';
  return act(tally, modifiers ? { kind: 'key-chord', keyUsage: usage, modifiers } : { kind: 'key', keyUsage: usage });
}

const takesText = (role) => (ts) => ts.find((t) => (!role || t.role === role) && t.words.includes('text')
  && !t.words.includes('secure') && !t.top);
const button = (label) => (ts) => ts.find((t) => t.role === 'button' && t.words.includes('click')
  && (t.text === label || t.text.startsWith(label + ' ')));

/** Polls the application's output (`check` gives a failure text or null) for up to 20 s. */
async function appShows(check) {
  let failure = null;
  for (const end = Date.now() + 20000; Date.now() < end; await pause(200)) {
    failure = check();
    if (!failure) return null;
  }
  return failure;
}

/** The file's content as the application saved it. */
const saved = (file, expect) => () => {
  const got = existsSync(file) ? readFileSync(file, 'utf8') : null;
  return got !== null && expect(got) ? null : `the file holds ${got === null ? 'nothing (absent)' : JSON.stringify(got.slice(0, 300))}`;
};

/** A program on the test desktop (this process's environment is the desktop's), its output discarded. */
function launch(command, args, env = {}) {
  return spawn(command, args, { stdio: 'ignore', env: { ...process.env, ...env }, detached: true });
}
function stop(child) {
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
}

// ---------------------------------------------------------------- gnome-calculator (GTK 4)

/** The clipboard's text as the X server's clipboard owner (the application) serves it. */
function clipboard() {
  try {
    return execFileSync('xclip', ['-o', '-selection', 'clipboard'], { timeout: 5000 }).toString();
  } catch { return null; }
}

const calculatorWindow = (ts) => ts.some((t) => t.top && t.text === 'Calculator') && takesText()(ts);

/** Types the expression into the calculator's display, Enter, then Ctrl+C: the result it copies is the proof. */
function calculate(expression, expect, { fill = false, buttons = null } = {}) {
  return async (tally) => {
    if (!(await seek(tally, calculatorWindow, { waiting: true, ms: WAIT_MS }))) return 'no calculator in the active window';
    const display = takesText();
    let failure = null;
    if (buttons) {
      for (const label of buttons) failure ??= await onTarget(tally, `the ${label} button`, button(label), { kind: 'click' });
    } else {
      failure = await onTarget(tally, 'the display', display, { kind: 'text', text: expression, fill })
        ?? await press(tally, USAGE.enter);
    }
    return failure
      ?? await press(tally, USAGE.c, CONTROL)
      ?? await appShows(() => (clipboard()?.trim() === expect ? null : `the clipboard holds ${JSON.stringify(clipboard())}`));
  };
}

// ---------------------------------------------------------------- gnome-text-editor (GTK 4)

/** A standalone gnome-text-editor on `file` (or a new document): the task types into its text view and saves. */
function textEditor(file, policy) {
  return async (tally) => {
    const editor = launch('gnome-text-editor', ['--standalone', '--ignore-session', ...(file ? [file] : [])]);
    try {
      // its own window: the title names the file (a closed editor's window may linger in the scene a moment)
      const title = file ? file.slice(file.lastIndexOf('/') + 1) : 'New Document';
      const view = await seek(tally, (ts) => ts.some((t) => t.top && t.text.startsWith(title)) && takesText()(ts),
        { waiting: true, ms: WAIT_MS });
      if (!view) return 'no text editor with a text view in the active window';
      return await policy(tally);
    } finally {
      stop(editor);
    }
  };
}

// ---------------------------------------------------------------- LibreOffice (one soffice for all its tasks)

const PROFILE = join(scratch, 'lo-profile');
/** A fresh profile that neither asks to keep a foreign format nor shows the tip of the day. */
function officeProfile() {
  mkdirSync(join(PROFILE, 'user'), { recursive: true, mode: 0o700 });
  const item = (path, prop, value) => `<item oor:path="${path}"><prop oor:name="${prop}" oor:op="fuse">`
    + `<value>${value}</value></prop></item>`;
  writeFileSync(join(PROFILE, 'user', 'registrymodifications.xcu'), '<?xml version="1.0" encoding="UTF-8"?>\n'
    + '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"'
    + ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
    + item('/org.openoffice.Office.Common/Save/Document', 'WarnAlienFormat', 'false')
    + item('/org.openoffice.Office.Common/Misc', 'ShowTipOfTheDay', 'false')
    + item('/org.openoffice.Office.Common/Misc', 'FirstRun', 'false')
    + '\n</oor:items>\n');
}
const offices = [];
/** Opens `file` in the shared soffice (the first call starts it); `filter` is its --infilter. */
function office(file, filter) {
  offices.push(launch('/usr/lib/libreoffice/program/soffice', ['--norestore', '--nologo', '--nofirststartwizard',
    `-env:UserInstallation=file://${PROFILE}`, ...(filter ? [`--infilter=${filter}`] : []), file],
  { SAL_USE_VCLPLUGIN: 'gtk3' }));
}

/** Opens an empty file of `name` in soffice, waits until its window shows `ready`, runs the policy, closes nothing. */
function inOffice(name, filter, title, ready, policy, expect) {
  return async (tally) => {
    // a sheet's window lists more than 256 targets in more than 8 KB (its visible cells come before its tool bars,
    // the Name Box among them): the view says to raise both
    tally.maximumTextBytes = 65536;
    tally.maximumTargets = 1024;
    const file = join(scratch, name);
    writeFileSync(file, '');
    // a first start makes a profile; a document opened in the running soffice has no such excuse
    const ms = offices.length ? 30000 : WAIT_MS;
    office(file, filter);
    if (!(await seek(tally, (ts) => ts.some((t) => t.top && t.text.startsWith(title)) && ready(ts),
      { waiting: true, ms }))) return `no ${title} window with its controls in the active window within ${ms} ms`;
    const failure = await policy(tally) ?? await appShows(saved(file, expect));
    // saved: the document is closed (Ctrl+W), as a user done with it would, so that soffice reads one document's
    // tree for the next task, not all of them (a second window's tree was not read within the refresh budget)
    if (!failure) await press(tally, USAGE.w, CONTROL);
    return failure;
  };
}

/** Writer's document body: the one that accepts TEXT, else the editable document (a refusal then says why). */
const body = (ts) => ts.find((t) => !t.top && t.w > 300 && t.words.includes('text') && t.role !== 'text-field')
  ?? ts.find((t) => !t.top && t.text === 'LibreOffice Document');
/** A paragraph of Writer's document: a text field inside the body's bounds, the one with the caret first. */
const paragraph = (ts) => {
  const b = body(ts);
  const inside = b ? ts.filter((t) => t !== b && t.role === 'text-field' && t.words.includes('text') && t.x >= b.x
    && t.y >= b.y && t.x + t.w <= b.x + b.w && t.y + t.h <= b.y + b.h) : [];
  return inside.find((t) => t.words.includes('focused')) ?? inside[0];
};
const nameBox = (ts) => ts.find((t) => t.role === 'text-field' && t.words.includes('text') && /^[A-Z]+[0-9]+$/.test(t.text));

/** HID usages of the keys a cell's value is typed with: digits, a, minus and equals (no shifted character). */
const KEYS = { ...Object.fromEntries([...'1234567890'].map((c, i) => [c, 30 + i])), a: 4, '-': 45, '=': 46 };

/**
 * Moves Calc's cursor to `cell` through the Name Box, then types each value key by key into the focused sheet, Enter
 * after each (the cursor goes one row down). Calc's input line is not in the view and its cells take no TEXT: keys to
 * the focused sheet, which the view shows focused, are what a model has.
 */
async function intoColumn(tally, cell, values) {
  let failure = await onTarget(tally, 'the Name Box', nameBox, { kind: 'text', text: cell }) ?? await press(tally, USAGE.enter);
  for (const value of values) {
    for (const c of value) failure ??= await press(tally, KEYS[c]);
    failure ??= await press(tally, USAGE.enter);
  }
  return failure;
}

const LONG = 'Saccade reads what the application shows and acts on it. '.repeat(12).trim();

/** A cell of Calc's sheet by its name (an empty cell's text), which takes a click. */
const cell = (name) => (ts) => ts.find((t) => t.role === 'table-cell' && t.text === name && t.words.includes('click'));

// ---------------------------------------------------------------- a Swing application (the Java ATK wrapper)

/** The command that starts SwingChooserApp with the ATK wrapper, a JSON array (SWING_APP), or null. */
const SWING = process.env.SWING_APP ? JSON.parse(process.env.SWING_APP) : null;
const SWING_TITLE = 'Saccade Swing chooser';
/** What the running Swing application printed, one line an entry. */
const printed = [];

/** Starts the Swing chooser; its stdout lines go to `printed`. */
function swingApp() {
  const app = spawn(SWING[0], SWING.slice(1), { stdio: ['ignore', 'pipe', 'ignore'], env: process.env, detached: true });
  let rest = '';
  app.stdout.setEncoding('utf8');
  app.stdout.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    printed.push(...lines);
  });
  return app;
}

/** A task in the running Swing chooser: the policy acts, then the application must print `expect`. */
function inSwing(policy, expect) {
  return async (tally) => {
    if (!SWING) return 'no Swing application to start (SWING_APP unset)';
    const from = printed.length;
    if (!(await seek(tally, (ts) => ts.some((t) => t.top && t.text === SWING_TITLE) && ts.some((t) => t.role === 'combo-box'),
      { waiting: true, ms: WAIT_MS }))) return 'no Swing chooser with its combo box in the active window';
    return await policy(tally) ?? await appShows(() => (printed.slice(from).includes(expect) ? null
      : `the application printed ${JSON.stringify(printed.slice(from))}`));
  };
}
const item = (text) => (ts) => ts.find((t) => ['list-item', 'menu-item'].includes(t.role) && t.text === text
  && t.words.includes('click'));

// ---------------------------------------------------------------- the run

const rows = [];
async function runTask(name, task) {
  if (ONLY && !ONLY.test(name)) return;
  const tally = new Tally(name);
  const began = Date.now();
  const failure = await task(tally).catch((e) => `threw: ${e?.stack ?? e}`);
  rows.push(tally.row(failure, Date.now() - began));
  process.stdout.write(JSON.stringify(rows.at(-1)) + '\n');
}

const calculatorTasks = [
  ['gnome-calculator: 12 × 3 = 36, copied', calculate('12×3', '36')],
  ['gnome-calculator: 100 − 58 = 42, copied', calculate('100−58', '42')],
  ['gnome-calculator: 7 × 6 by its buttons', calculate(null, '42', { buttons: ['7', '×', '6', '='] })],
  ['gnome-calculator: 2^10 filled, copied', calculate('2^10', '1024', { fill: true })],
];
if (calculatorTasks.some(([n]) => !ONLY || ONLY.test(n))) {
  const calculator = launch('gnome-calculator', []);
  try {
    for (const [name, task] of calculatorTasks) await runTask(name, task);
  } finally {
    stop(calculator);
  }
}

const chosen = join(scratch, 'chooser.txt');
await runTask('gnome-text-editor: type a line, save through the file chooser', textEditor(null, async (tally) =>
  await onTarget(tally, 'the text view', takesText(), { kind: 'text', text: 'saved through the chooser' })
  ?? await press(tally, USAGE.s, CONTROL)
  // the name field holds the document's name: fill replaces all of it with the path (read back, D65)
  ?? (await seek(tally, (ts) => ts.some((t) => t.top && /Save/.test(t.text)) && takesText('text-field')(ts))
    ? null : 'no Save dialog with a name field in the text view')
  ?? await onTarget(tally, 'the file chooser\'s name field', takesText('text-field'),
    { kind: 'text', text: chosen, fill: true })
  ?? await press(tally, USAGE.enter)
  ?? await appShows(saved(chosen, (s) => s.trim() === 'saved through the chooser'))));
const edited = join(scratch, 'edited.txt');
writeFileSync(edited, '');
await runTask('gnome-text-editor: type into a file, Ctrl+S', textEditor(edited, async (tally) =>
  await onTarget(tally, 'the text view', takesText(), { kind: 'text', text: 'typed by keys' })
  ?? await press(tally, USAGE.s, CONTROL)
  ?? await appShows(saved(edited, (s) => s.trim() === 'typed by keys'))));
const filled = join(scratch, 'filled.txt');
writeFileSync(filled, '');
await runTask('gnome-text-editor: fill a paragraph, Ctrl+S', textEditor(filled, async (tally) =>
  await onTarget(tally, 'the text view', takesText(), { kind: 'text', text: LONG, fill: true })
  ?? await press(tally, USAGE.s, CONTROL)
  ?? await appShows(saved(filled, (s) => s.trim() === LONG))));

officeProfile();
try {
  // Calc first: its document's tree is read while it is soffice's first window
  await runTask('LibreOffice Calc: two values and a sum, save as CSV', inOffice('sum.csv',
    'Text - txt - csv (StarCalc):44,34,76,1', 'sum', nameBox, async (tally) =>
      await intoColumn(tally, 'A1', ['12', '30', '=a1--a2'])
      ?? await press(tally, USAGE.s, CONTROL), (s) => s.trim().split(/\r?\n/).join(',') === '12,30,42'));
  await runTask('LibreOffice Calc: 42 into B2 by its cell, save as CSV', inOffice('cell.csv',
    'Text - txt - csv (StarCalc):44,34,76,1', 'cell', cell('B2'), async (tally) =>
      await onTarget(tally, 'the cell B2', cell('B2'), { kind: 'click' })
      ?? await press(tally, KEYS['4']) ?? await press(tally, KEYS['2']) ?? await press(tally, USAGE.enter)
      ?? await press(tally, USAGE.s, CONTROL), (s) => {
      const lines = s.split(/\r?\n/);
      return lines[0].replace(/,/g, '') === '' && lines[1] === ',42';
    }));
  await runTask('LibreOffice Writer: type a sentence, save as text', inOffice('sentence.txt', null, 'sentence',
    (ts) => body(ts), async (tally) => await onTarget(tally, 'the document body', body,
      { kind: 'text', text: 'Agents write letters too.' })
      ?? await press(tally, USAGE.s, CONTROL), (s) => s.trim() === 'Agents write letters too.'));
  await runTask('LibreOffice Writer: fill a paragraph, save as text', inOffice('paragraph.txt', null, 'paragraph',
    // the body takes no fill (it has no text of its own), its paragraph does: the text replaced, read back
    (ts) => paragraph(ts), async (tally) => await onTarget(tally, 'a paragraph of the document', paragraph,
      { kind: 'text', text: LONG, fill: true })
      ?? await press(tally, USAGE.s, CONTROL), (s) => s.trim() === LONG));
} finally {
  offices.forEach(stop); // each launcher's process group: oosplash and its soffice.bin
}

// after LibreOffice: with the Swing application run (and killed) before it, soffice's window was not read within
// 90 s in two runs of two, while it was in three of three without it
const swingTasks = [
  ['Swing: pick Cherry from the combo box popup', inSwing(async (tally) =>
    await onTarget(tally, 'the combo box', (ts) => ts.find((t) => t.role === 'combo-box' && t.words.includes('click')),
      { kind: 'click' })
    ?? await onTarget(tally, 'the popup item Cherry', item('Cherry'), { kind: 'click' }), 'combo Cherry')],
  ['Swing: choose the table row Grace', inSwing(async (tally) =>
    await onTarget(tally, 'the table cell Grace', (ts) => ts.find((t) => t.role === 'table-cell' && t.text === 'Grace'
      && t.words.includes('click')), { kind: 'click' }), 'row Grace')],
];
if (swingTasks.some(([n]) => !ONLY || ONLY.test(n))) {
  const swing = SWING ? swingApp() : null;
  try {
    for (const [name, task] of swingTasks) await runTask(name, task);
  } finally {
    if (swing) stop(swing);
  }
}

await client.close();
process.stdout.write(JSON.stringify({ done: rows.length }) + '\n');
process.exit(0);
