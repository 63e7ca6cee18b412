// The agent task suite, run by AgentTaskSuiteIT: tasks driven only through `saccade mcp`
// with the official MCP SDK client. Each task's policy reads what a model reads (the text block; ids come from
// its lines) — find, act, verify — and is verified from the application's own output or state (what zenity
// printed and its exit code, the X server's window list), never from our scene.
// Usage: node tasks.mjs <bin/saccade> <agent endpoint socket>. Prints one JSON line per task, then {"done":...}.
// SACCADE_TASKS_RUN_AS (a JSON array, e.g. a setpriv prefix) goes before every app the script starts: on a Wayland
// session whose apps run as the session's user, this process's environment is the session's and the prefix its user.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn, execFileSync } from 'node:child_process';
import { accessibles, hasState, textOf, STATE } from './app-state.mjs';

const [launcher, endpoint] = process.argv.slice(2);
// TASKS_ONLY (a regular expression) runs only the tasks whose names match it: for working on one task.
const ONLY = process.env.TASKS_ONLY ? new RegExp(process.env.TASKS_ONLY) : null;
const RUN_AS = process.env.SACCADE_TASKS_RUN_AS ? JSON.parse(process.env.SACCADE_TASKS_RUN_AS) : [];
const client = new Client({ name: 'saccade-agent-tasks', version: '1.0.0' });
// SACCADE_VERIFY_SETTLE_MS goes on to saccade mcp (the SDK passes only a few variables by default): the settle
// window of verification, for measuring what it has to be (bench/README.md, "Settle window").
const settle = process.env.SACCADE_VERIFY_SETTLE_MS;
await client.connect(new StdioClientTransport({ command: launcher, args: ['mcp', '--endpoint', endpoint], stderr: 'inherit',
  env: settle === undefined ? undefined : { ...getDefaultEnvironment(), SACCADE_VERIFY_SETTLE_MS: settle } }));

const KEY = { enter: 40, right: 79, left: 80, down: 81, up: 82, tab: 43, space: 44, l: 15, a: 4, b: 5, c: 6 };
const CONTROL = 2;
const APP_DEADLINE_MS = 20000;

/** One task's bookkeeping: every tool call goes through it. */
class Run {
  constructor(name) {
    Object.assign(this, { name, calls: 0, waitCalls: 0, waiting: false, textBytes: [], stale: 0, staleAfterVerified: 0,
      lastVerified: false, rejections: [], generation: undefined, effects: [], blind: 0 });
  }
  async call(tool, args) {
    if (this.waiting) this.waitCalls++; else this.calls++;
    // a key or text with no target goes wherever the focus is: typed without a view showing where
    if (tool === 'saccade_act' && ['key', 'key-chord', 'text'].includes(args.kind) && args.targetId === undefined) this.blind++;
    const r = await client.callTool({ name: tool, arguments: args });
    const text = r.content?.[0]?.text ?? '';
    if (tool !== 'saccade_act') {
      this.textBytes.push(Buffer.byteLength(text, 'utf8'));
    } else {
      // observeAfter: the active window's scene after the action, in the same result
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
      if (r.isError) this.rejections.push(args.kind + ': ' + text);
      // what the adapter observed after the action (mcp.md §7): every no-change is listed for checking
      const effect = r.structuredContent?.effect;
      if (effect) this.effects.push(effect === 'confirmed' ? effect : effect + ' (' + args.kind + ')');
      if (this.lastNext) this.generation = this.lastNext;
      if (at >= 0 && this.scene.generation) this.generation = this.scene.generation;
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
    t.windowTarget = m[1] === '' ? t.id : window?.id; // the id of the window line it is listed under
    targets.push(t);
  }
  return { generation, targets, text };
}

/** Observes the active window until `find` returns a target (or the deadline); returns {scene, target}. */
async function findIn(run, find, scope = { scope: 'active-window' }) {
  const deadline = Date.now() + APP_DEADLINE_MS;
  let after;
  let desktopAfter;
  while (Date.now() < deadline) {
    const { r, text } = await run.call('saccade_observe', after ? { ...scope, afterGeneration: after } : scope);
    if (!r.isError) {
      const scene = parse(text);
      run.generation = scene.generation;
      run.scene = scene;
      const target = find(scene.targets, scene);
      if (target) return { scene, target };
      after = scene.generation;
    } else if (!text.startsWith('Observation rejected: timeout')) {
      after = undefined;
      // No such scope now (no active window on a desktop that has none between dialogs): wait for the desktop's
      // next scene rather than asking again at once.
      const desktop = await run.call('saccade_observe', { scope: 'desktop', maximumTargets: 1,
        ...(desktopAfter ? { afterGeneration: desktopAfter } : {}) });
      if (!desktop.r.isError) desktopAfter = parse(desktop.text).generation;
    }
  }
  return { scene: null, target: null };
}

const byText = (text, word) => (ts) => ts.find((t) => t.text === text && (!word || t.words.includes(word)));

async function act(run, args) {
  let { r, text } = await run.call('saccade_act', { observeAfter: true, ...args });
  if (r.structuredContent?.result === -3 && args.targetId) {
    // Stale: the app changed the scene since the view (a dialog's default button took the focus a moment after
    // it showed). As the reply asks: look again (the target's id is stable) and act once more on the new view.
    const again = parse((await run.call('saccade_query', { targetId: args.targetId })).text);
    if (again.generation && again.targets.some((t) => t.id === args.targetId)) {
      run.generation = again.generation;
      ({ r, text } = await run.call('saccade_act', { observeAfter: true, ...args, generation: again.generation }));
    }
  }
  return { ok: !r.isError, text, next: r.structuredContent?.nextGeneration?.generation, s: r.structuredContent };
}

/** Spawns an app of the desktop: as the session's user where SACCADE_TASKS_RUN_AS says how. */
function spawnApp(command, args, options) {
  return RUN_AS.length ? spawn(RUN_AS[0], [...RUN_AS.slice(1), command, ...args], options) : spawn(command, args, options);
}

/** Starts a program on the test desktop (this process's environment is the desktop's); collects its output. */
function start(command, args) {
  const child = spawnApp(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
      // the dialog's window and its controls (a dialog's tree may come a generation after its window)
      const { scene } = await findIn(run, (ts) => ts.find((t) => t.role === 'window' && t.text === title)
        && ts.find((t) => t.window === title && t.role !== 'window' && (t.words.includes('click') || t.words.includes('text'))));
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
  let target = latest(run, scene).targets.find((t) => t.text === label && t.words.includes('click'));
  if (!target) ({ scene, target } = await findIn(run, byText(label, 'click')));
  if (!target) return null;
  return act(run, { kind: 'click', targetId: target.id, generation: run.generation, verifyNextGeneration: true });
}

/** The newest scene the task has read: the last observe's or the last action's after-scene. */
function latest(run, scene) {
  return run.scene ?? scene;
}

/** A target in the newest scene, else in `scene`, else by observing until it shows. */
async function find(run, scene, pred) {
  const t = pred(latest(run, scene).targets) ?? (scene ? pred(scene.targets) : undefined);
  if (t) return { scene: latest(run, scene), target: t };
  return findIn(run, pred);
}

async function key(run, usage, modifiers = 0) {
  return act(run, { kind: modifiers ? 'key-chord' : 'key', keyUsage: usage, modifiers, verifyNextGeneration: true });
}

/** Ticks the check cells of the rows with these item texts (the check cell is left of the item's text). */
async function tick(run, s, items) {
  for (const item of items) {
    const { scene, target } = await find(run, s, byText(item, 'click'));
    if (!target) continue;
    const check = scene.targets.find((t) => t.words.includes('click') && Math.abs(t.y - target.y) < 4 && t.x < target.x);
    await act(run, { kind: 'click', targetId: (check ?? target).id, generation: run.generation, verifyNextGeneration: true });
  }
}

/**
 * Clicks the targets with these texts one after the other, each found in the scene the last click left;
 * `checks[label]`, if any, judges that click's act result (a failure text or null).
 */
async function clickAll(run, s, labels, checks = {}) {
  for (const label of labels) {
    const { target } = await find(run, s, (ts) => ts.find((t) => t.text === label && t.words.includes('click')));
    if (!target) { run.notes = (run.notes ?? []).concat([`no '${label}' in the view`]); return false; }
    const done = await act(run, { kind: 'click', targetId: target.id, generation: run.generation, verifyNextGeneration: true });
    if (!done.ok && !/timeout/.test(done.text)) { run.notes = (run.notes ?? []).concat([done.text]); return false; }
    const failure = checks[label]?.(done);
    if (failure) { run.notes = (run.notes ?? []).concat([failure]); return false; }
  }
  return true;
}

/** Polls the application's own state (`check` returns a failure text or null) until it holds or the deadline. */
async function appSays(check) {
  let failure = 'never checked';
  for (const deadline = Date.now() + APP_DEADLINE_MS; Date.now() < deadline;) {
    failure = check();
    if (!failure) return null;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return failure;
}

/** A window of the running gtk3-demo: `gtk3-demo --run=ID` opens that demo in it; the task acts there. */
function gtkDemo(id, title, policy, verify) {
  return async (run) => {
    start('gtk3-demo', ['--run=' + id]);
    run.waiting = true;
    // the demo opens in the running gtk3-demo, which may not be in front: find it on the desktop, then raise it
    const { scene, target: window } = await findIn(run, (ts) => ts.find((t) => t.role === 'window' && t.text === title
      && t.words.includes('window') && ts.some((c) => c.windowTarget === t.id && c.role !== 'window' && c.words.includes('click'))),
    { scope: 'desktop', maximumTargets: 1000 });
    run.waiting = false;
    if (!scene) return `no '${title}' window on the desktop`;
    // raising changes nothing an agent planned on: no generation precondition (the new window may still be settling)
    const raised = await act(run, { kind: 'window', targetId: window.id, verifyNextGeneration: true });
    if (!raised.ok && !/timeout/.test(raised.text)) return 'raising the window failed: ' + raised.text;
    const failed = await policy(run, run.scene ?? scene);
    return failed ?? appSays(verify);
  };
}

const QT_CALCULATOR = '/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator';

/** The Qt calculator: start one, press its buttons by their labels, read its display from the application. */
let calculatorApp = null;
/** One calculator for the calculator tasks (a second instance after a killed one did not register on AT-SPI here). */
function calculator(labels, expect, checks = {}) {
  return async (run) => {
    if (!calculatorApp) {
      calculatorApp = spawnApp(QT_CALCULATOR, [], { stdio: 'ignore',
        env: { ...process.env, QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1', QT_ACCESSIBILITY: '1' } });
    }
    {
      run.waiting = true;
      const { scene } = await findIn(run, (ts) => ts.find((t) => t.role === 'window' && t.text === 'Calculator')
        && ts.find((t) => t.window === 'Calculator' && t.text === labels[0] && t.words.includes('click')));
      run.waiting = false;
      if (!scene) return 'no calculator with buttons in the active window';
      if (!(await clickAll(run, scene, labels, checks))) return 'a button press failed: ' + run.notes?.at(-1);
      return appSays(() => {
        const display = accessibles('calculator', 'Calculator', (role) => role === 'text').map(textOf);
        return display.includes(expect) ? null : `the calculator's display reads ${JSON.stringify(display)}`;
      });
    }
  };
}

/** Clicks gtk3-demo's page tab `name`, raising its window first when another window covers it. */
async function clickTab(run, name) {
  // the whole desktop holds the demos this suite opened: a bound the view of all of them fits in
  let { target } = await findIn(run, (ts) => ts.find((t) => t.role === 'tab' && t.text === name),
    { scope: 'desktop', maximumTargets: 1000, maximumTextBytes: 65536 });
  if (!target) return `no ${name} tab in the text view`;
  // raise its window first: another window may cover part of it (the demos this suite opened)
  const raised = await act(run, { kind: 'window', targetId: target.windowTarget, verifyNextGeneration: true });
  if (!raised.ok && !/timeout/.test(raised.text)) return 'raising the window failed: ' + raised.text;
  ({ target } = await find(run, null, (ts) => ts.find((t) => t.role === 'tab' && t.text === name)));
  if (!target) return `no ${name} tab after raising its window`;
  const done = await act(run, { kind: 'click', targetId: target.id, generation: run.generation, verifyNextGeneration: true });
  if (!done.ok && !/timeout/.test(done.text)) return 'the click was rejected: ' + done.text;
  return appSays(() => tabSelected(name));
}

/** A gtk3-demo page tab named `name` says it is selected (the application's own state). */
function tabSelected(name) {
  const tabs = accessibles('gtk3-demo', null, (role, n) => role === 'page tab' && n === name, { first: 1 });
  return tabs.length && hasState(tabs[0], STATE.SELECTED) ? null : `the '${name}' tab is not selected (${tabs.length} found)`;
}

async function typeInto(run, scene, text) {
  const editable = (t) => t.words.includes('text') && !t.words.includes('secure');
  const pick = (ts) => ts.find((t) => t.role === 'text-field' && editable(t)) ?? ts.find(editable);
  let field = pick(latest(run, scene).targets);
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
  // A password field has the focus: Saccade types nothing for an agent (a refused key, docs/decisions.md D30);
  // zenity's empty output after OK is the application's proof that no key landed.
  ['zenity password: keys refused, OK', zenity('password', ['--password'], 'T password',
    async (run, s) => {
      const refused = await key(run, KEY.a);
      run.notes = (run.notes ?? []).concat([refused.ok ? 'the key was not refused' : refused.text.split('.')[0]]);
      await clickButton(run, s, 'OK');
    }, '')],
  ['zenity question: Yes', zenity('question-yes', ['--question', '--text=Proceed?'], 'T yes',
    async (run, s) => { await clickButton(run, s, 'Yes'); }, '', 0)],
  ['zenity question: No', zenity('question-no', ['--question', '--text=Proceed?'], 'T no',
    async (run, s) => { await clickButton(run, s, 'No'); }, '', 1)],
  ['zenity list: pick banana', zenity('list', ['--list', '--column=Fruit', 'apple', 'banana', 'cherry'], 'T list',
    async (run, s) => {
      const { target } = await find(run, s, byText('banana', 'click'));
      if (target) await act(run, { kind: 'click', targetId: target.id, generation: run.generation, verifyNextGeneration: true });
      await clickButton(run, s, 'OK');
    }, 'banana')],
  ['zenity checklist: tick b', zenity('checklist', ['--list', '--checklist', '--column=Pick', '--column=Item',
    'FALSE', 'a', 'FALSE', 'b'], 'T checklist',
    async (run, s) => {
      await tick(run, s, ['b']);
      await clickButton(run, s, 'OK');
    }, 'b')],
  ['zenity scale: one step right', zenity('scale', ['--scale', '--value=50', '--text=Level'], 'T scale',
    async (run, s) => { await key(run, KEY.right); await clickButton(run, s, 'OK'); }, '51')],
  // GtkCalendar: the dialog's focus starts on OK; Tab reaches the calendar, whose Control+Right is the next
  // month with the same day (a plain arrow moves from the calendar's own focus cell, not the selected day).
  ['zenity calendar: next month by keys', zenity('calendar', ['--calendar', '--day=14', '--month=3', '--year=2025',
    '--date-format=%Y-%m-%d'], 'T calendar',
    async (run, s) => { await key(run, KEY.tab); await key(run, KEY.right, CONTROL); await clickButton(run, s, 'OK'); },
    '2025-04-14')],
  ['zenity file chooser: typed path', zenity('file', ['--file-selection'], 'T file',
    async (run) => {
      await key(run, KEY.l, CONTROL); // the location field; the result's after-scene shows it
      const { scene } = await find(run, null, (ts) => ts.find((t) => t.role === 'text-field' && t.words.includes('text')));
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
    // the after-scene of the verified click holds the Run button: act on its generation at once
    const { target: runButton } = await find(run, null, (ts) => ts.find((t) => t.text === 'Run' && t.words.includes('click')));
    if (!runButton) return 'no Run button after the click';
    const ran = await act(run, { kind: 'click', targetId: runButton.id, generation: run.generation, verifyNextGeneration: true });
    if (!ran.ok) return 'Run was rejected on the verified generation: ' + ran.text;
    return (await until(() => windowTitles().includes('Button Boxes'))) ? null : 'no Button Boxes window: ' + windowTitles();
  }],
  ['gtk3-demo: an inert button reports no-change', async (run) => {
    // Button Boxes' buttons do nothing. The first click may move the keyboard focus to it (a change); a
    // second click on the focused button changes nothing, and the act result must say so (mcp.md §7).
    const { target } = await findIn(run, (ts) => ts.find((t) => t.text === 'Help' && t.window === 'Button Boxes'
      && t.words.includes('click')));
    if (!target) return 'no Help button in the Button Boxes window';
    const first = await act(run, { kind: 'click', targetId: target.id, verifyNextGeneration: true });
    if (!first.ok) return 'the first click was rejected: ' + first.text;
    const again = await act(run, { kind: 'click', targetId: target.id, verifyNextGeneration: true });
    if (!again.ok && !/timeout/.test(again.text)) return 'the second click was rejected: ' + again.text;
    if (again.s?.effect !== 'no-change') return 'the inert click reported ' + JSON.stringify(again.s?.effect)
      + ' ' + JSON.stringify(again.s?.observed);
    return windowTitles().includes('Button Boxes') ? null : 'the Button Boxes window went away: ' + windowTitles();
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
      const { target } = await find(run, s, byText('two', 'click'));
      if (target) await act(run, { kind: 'click', targetId: target.id, generation: run.generation, verifyNextGeneration: true });
      await clickButton(run, s, 'OK');
    }, 'two')],
  ['drag: zenity scale slider to its right end', zenity('scale-drag', ['--scale', '--value=10', '--text=Drag me'], 'T drag',
    async (run, s) => {
      // The slider's bounds from the text view; the drag goes between the grid cells under its two ends.
      // The slider is the drag source (it carries drag); the drop is the grid cell under its right end, named
      // from the view's grid line, whose bounds (one query) keep the drop point inside both.
      const { scene, target: slider } = await find(run, s, (ts) => ts.find((t) => t.role === 'slider' && t.words.includes('drag')));
      if (!slider) { run.notes = ['no slider with drag in the view']; return; }
      const from = { x: slider.x + Math.round(slider.w * 0.1), y: slider.y + Math.floor(slider.h / 2) };
      let to = { x: slider.x + slider.w - 2, y: from.y };
      let label = cellAt(scene.text, to.x, to.y);
      if (!label) { // an active window with accessible targets lists no grid cells (D22): r0c0 gives their size
        const first = parse((await run.call('saccade_query', { text: 'r0c0' })).text).targets[0];
        if (first) label = `r${Math.floor(to.y / first.h)}c${Math.floor(to.x / first.w)}`;
      }
      const cell = label && parse((await run.call('saccade_query', { text: label })).text).targets[0];
      if (!cell) { run.notes = ['no grid cell ' + label]; return; }
      to = { x: Math.max(Math.min(to.x, cell.x + cell.w - 1), cell.x), y: Math.max(Math.min(to.y, cell.y + cell.h - 1), cell.y) };
      await act(run, { kind: 'drag', targetId: slider.id, secondaryTargetId: cell.id, generation: run.generation,
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
      const { target } = await find(run, s, byText('red', 'click'));
      if (!target) return;
      await act(run, { kind: 'click', targetId: target.id, generation: run.generation, verifyNextGeneration: true });
      const { target: blue } = await find(run, s, byText('blue', 'click'));
      if (blue) await act(run, { kind: 'click', targetId: blue.id, generation: run.generation, modifiers: CONTROL, verifyNextGeneration: true });
      await clickButton(run, s, 'OK');
    }, 'red|blue')],
  ['zenity scale: three steps left', zenity('scale-left', ['--scale', '--value=20', '--text=Lower'], 'T scale left',
    async (run, s) => { for (let i = 0; i < 3; i++) await key(run, KEY.left); await clickButton(run, s, 'OK'); }, '17')],
);

tasks.push(
  ['Qt calculator: 9 squared shows 81', calculator(['9', 'x\u00b2'], '81')],
  // "+" only sets a pending operator, which nothing on screen shows (D63): its result must not read as a no-op an
  // agent may repeat (a second "+" computes), so a no-change carries the warning against a repeat
  ['Qt calculator: 7 + 8 = shows 15', calculator(['7', '+', '8', '='], '15', {
    '+': (done) => done.s?.effect !== 'no-change' || /do not repeat it/.test(done.s?.effectHint ?? '') ? null
      : `"+" was reported a no-change without the warning: ${JSON.stringify(done.s?.effectHint)}` })],
  ['gtk3-demo: untick a check button', gtkDemo('sizegroup', 'Size Groups', async (run, s) => {
    const { target } = await find(run, s, (ts) => ts.find((t) => t.role === 'checkbox' && t.text === 'Enable grouping'));
    if (!target) return 'no Enable grouping check button';
    if (!target.words.includes('checked')) return 'the check button is not checked at the start';
    const done = await act(run, { kind: 'click', targetId: target.id, generation: run.generation, verifyNextGeneration: true });
    return done.ok ? null : 'the click was rejected: ' + done.text;
  }, () => {
    const [box] = accessibles('gtk3-demo', 'Size Groups', (role, n) => role === 'check box' && n === 'Enable grouping');
    return box && !hasState(box, STATE.CHECKED) ? null : 'Enable grouping is still checked (or gone)';
  })],
  ['gtk3-demo: spin button one step up', gtkDemo('spinbutton', 'Spin Buttons', async (run, s) => {
    const { target } = await find(run, s, (ts) => ts.find((t) => t.role === 'spin-button' && t.text === '0.00'));
    if (!target) return 'no numeric spin button at 0.00';
    const done = await act(run, { kind: 'scroll', targetId: target.id, deltaYQ8: -256, generation: run.generation,
      verifyNextGeneration: true });
    return done.ok ? null : 'the scroll was rejected: ' + done.text;
  }, () => {
    const values = accessibles('gtk3-demo', 'Spin Buttons', (role) => role === 'spin button').map(textOf);
    return values.includes('0.50') ? null : 'the spin buttons read ' + JSON.stringify(values);
  })],
  ['gtk3-demo: type into an entry', gtkDemo('entry_buffer', 'Entry Buffer', async (run, s) => {
    const { target } = await find(run, s, (ts) => ts.find((t) => t.role === 'text-field' && !t.words.includes('secure')));
    if (!target) return 'no plain entry';
    const done = await act(run, { kind: 'text', targetId: target.id, text: 'shared', generation: run.generation,
      verifyNextGeneration: true });
    return done.ok ? null : 'the typing was rejected: ' + done.text;
  }, () => {
    const texts = accessibles('gtk3-demo', 'Entry Buffer', (role) => role === 'entry' || role === 'text').map(textOf);
    return texts.includes('shared') ? null : 'the entries read ' + JSON.stringify(texts);
  })],
  ['gtk3-demo: a message dialog, then OK', async (run) => {
    const before = windowTitles().length;
    return gtkDemo('dialog', 'Dialogs and Message Boxes', async (r, s) => {
      if (!(await clickAll(r, s, ['Message Dialog']))) return 'Message Dialog did not open';
      if (!(await until(() => windowTitles().length > before))) return 'no dialog window appeared: ' + windowTitles();
      const shown = windowTitles().length;
      if (!(await clickAll(r, null, ['OK']))) return 'no OK in the dialog';
      return (await until(() => windowTitles().length < shown)) ? null : 'the dialog is still open: ' + windowTitles();
    }, () => null)(run);
  }],
  ['zenity checklist: tick a and c', zenity('checklist-two', ['--list', '--checklist', '--column=Pick', '--column=Item',
    'FALSE', 'a', 'FALSE', 'b', 'FALSE', 'c'], 'T check two',
    async (run, s) => { await tick(run, s, ['a', 'c']); await clickButton(run, s, 'OK'); }, 'a|c')],
  ['zenity forms: two entries', zenity('forms-two', ['--forms', '--text=Who', '--add-entry=First', '--add-entry=Last'],
    'T forms two', async (run, s) => {
      const fields = latest(run, s).targets.filter((t) => t.role === 'text-field' && t.words.includes('text'));
      if (fields.length < 2) { run.notes = ['fewer than two fields']; return; }
      fields.sort((a, b) => a.y - b.y);
      await act(run, { kind: 'text', targetId: fields[0].id, text: 'Ada', generation: run.generation, verifyNextGeneration: true });
      // focus the second field and see it focused before typing (a focus click and typing at once can race GTK's focus)
      await act(run, { kind: 'click', targetId: fields[1].id, generation: run.generation, verifyNextGeneration: true });
      await act(run, { kind: 'text', targetId: fields[1].id, text: 'Lovelace', generation: run.generation, verifyNextGeneration: true });
      await clickButton(run, s, 'OK');
    }, 'Ada|Lovelace')],
  ['zenity error: OK', zenity('error', ['--error', '--text=Failed'], 'T error',
    async (run, s) => { await clickButton(run, s, 'OK'); }, '', 0)],
  ['zenity list: print the second column', zenity('list-column', ['--list', '--column=Id', '--column=Name',
    '--print-column=2', '1', 'apple', '2', 'banana'], 'T column',
    async (run, s) => {
      const { target } = await find(run, s, byText('2', 'click'));
      if (target) await act(run, { kind: 'click', targetId: target.id, generation: run.generation, verifyNextGeneration: true });
      await clickButton(run, s, 'OK');
    }, 'banana')],
);

// The tab tasks run first, while gtk3-demo's main window is the only window over the desktop (the demos the
// later tasks open cover it).
tasks.unshift(
  ['gtk3-demo: switch to the Source tab', (run) => clickTab(run, 'Source')],
  ['gtk3-demo: back to the Info tab', (run) => (tabSelected('Info') === null
    ? 'Info is selected already: the Source task did not switch' : clickTab(run, 'Info'))],
);

const rows = [];
for (const [name, task] of tasks) {
  if (ONLY && !ONLY.test(name)) continue;
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
    stale: run.stale, staleAfterVerified: run.staleAfterVerified, blind: run.blind, effects: run.effects,
    wallMs: Date.now() - startMs };
  rows.push(row);
  process.stdout.write(JSON.stringify(row) + '\n');
}
calculatorApp?.kill('SIGKILL');
await client.close();
process.stdout.write(JSON.stringify({ done: rows.length }) + '\n');
process.exit(0);
