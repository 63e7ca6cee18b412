// What an application itself says about its widgets, read over its AT-SPI2 bus with gdbus: the task suite's
// verification for apps that print nothing (the Qt calculator's display, a GTK tab, check or spin button).
// It never asks Saccade: the application's own accessible objects are the witness, not our scene.
import { execFileSync } from 'node:child_process';

let address;
function a11y() {
  if (!address) {
    address = /'(.*)'/.exec(execFileSync('gdbus', ['call', '--session', '--dest', 'org.a11y.Bus', '--object-path',
      '/org/a11y/bus', '--method', 'org.a11y.Bus.GetAddress']).toString())[1];
  }
  return address;
}
function call(o, method, ...args) {
  return execFileSync('gdbus', ['call', '--address', a11y(), '--dest', o.dest, '--object-path', o.path, '--method', method,
    ...args], { stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).toString();
}
const unquote = (s) => s?.replace(/\\(.)/g, '$1');
const children = (o) => [...call(o, 'org.a11y.atspi.Accessible.GetChildren')
  .matchAll(/\('([^']+)', (?:objectpath )?'([^']+)'\)/g)].map((m) => ({ dest: m[1], path: m[2] }));
const property = (o, iface, name) => call(o, 'org.freedesktop.DBus.Properties.Get', iface, name);
const nameOf = (o) => unquote(/<'((?:[^'\\]|\\.)*)'>/.exec(property(o, 'org.a11y.atspi.Accessible', 'Name'))?.[1]) ?? '';
const roleOf = (o) => /\('(.*)',\)/.exec(call(o, 'org.a11y.atspi.Accessible.GetRoleName'))?.[1] ?? '';

/** AT-SPI state numbers (atspi-constants.h). */
export const STATE = { CHECKED: 4, FOCUSED: 12, SELECTED: 23 };

export function hasState(o, bit) {
  const m = /\[(?:uint32 )?(\d+), (?:uint32 )?(\d+)\]/.exec(call(o, 'org.a11y.atspi.Accessible.GetState'));
  return m ? ((BigInt(bit < 32 ? m[1] : m[2]) >> BigInt(bit % 32)) & 1n) === 1n : false;
}
export function textOf(o) {
  try {
    return unquote(/\('((?:[^'\\]|\\.)*)',\)/.exec(call(o, 'org.a11y.atspi.Text.GetText', '0', '1000000'))?.[1]);
  } catch { return undefined; }
}

/**
 * The accessible objects under the frame named `frame` (null: every frame) of the application named `app` that `accept(role, name)`
 * takes, breadth first (at most `limit` objects read; roles in `skip` are not entered).
 */
export function accessibles(app, frame, accept, { limit = 400, skip = ['tree table', 'table', 'text'], first = Infinity } = {}) {
  const found = [];
  for (const a of children({ dest: 'org.a11y.atspi.Registry', path: '/org/a11y/atspi/accessible/root' })) {
    try {
      if (nameOf(a) !== app) continue;
      for (const f of children(a)) {
        if (frame !== null && nameOf(f) !== frame) continue;
        const queue = [f];
        for (let n = 0; queue.length && n < limit; n++) {
          const o = queue.shift();
          try {
            const role = roleOf(o);
            const name = nameOf(o);
            if (accept(role, name)) found.push(Object.assign(o, { role, name }));
            if (found.length >= first) return found;
            if (!skip.includes(role)) queue.push(...children(o));
          } catch { /* gone meanwhile */ }
        }
      }
    } catch { /* an application that left */ }
  }
  return found;
}
