#!/usr/bin/env node
// `npm run test:times`: where the last test run's time went (issue 52, docs/testing.md). Reads
// .test-times/: install.jsonl (.ci/run's install phases), phases.jsonl (scripts/test.mjs: check,
// build, vitest, Playwright) and parts.jsonl (a line per test file and project, written by
// tests/helpers/timing.ts), and prints the phase table, each vitest project's file time, and
// the slowest files with what their time went to.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TIMES_DIR = '.test-times';

/** The machine's CPU ticks since boot: all, and busy (not idle, not waiting for I/O). */
export function cpuTicks() {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { total, busy: total - fields[3] - (fields[4] ?? 0) };
  } catch {
    return { total: 0, busy: 0 };
  }
}

function readLines(file) {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

const s = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
const pct = (x) => (x == null ? '' : `${Math.round(x * 100)} %`);

function table(rows, align) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r, n) =>
      r
        .map((c, i) => (align[i] === 'r' ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
        .join('  ')
        .trimEnd() + (n === 0 ? '\n' + widths.map((w) => '-'.repeat(w)).join('  ') : ''),
    )
    .join('\n');
}

/** The report, as text. `slowest`: how many files to list. */
export function timesReport(dir, slowest = 30) {
  const phases = [...readLines(path.join(dir, 'install.jsonl')), ...readLines(path.join(dir, 'phases.jsonl'))];
  const parts = readLines(path.join(dir, 'parts.jsonl'));
  const out = [];
  if (phases.length) {
    const total = phases.reduce((a, p) => a + p.wallMs, 0);
    const rows = [['phase', 'wall', 'CPUs busy', 'result']];
    for (const p of phases) rows.push([p.phase, s(p.wallMs), pct(p.busy), p.status === 0 ? 'ok' : p.status == null ? '' : `exit ${p.status}`]);
    rows.push(['total', s(total), '', `${(total / 60_000).toFixed(1)} min (budget 30 min quiet, 45 min with two CPU hogs)`]);
    out.push(table(rows, ['l', 'r', 'r', 'l']));
  }
  if (parts.length) {
    const byProject = new Map();
    for (const p of parts) {
      const t = byProject.get(p.project) ?? { files: 0, wallMs: 0, serverStartMs: 0, serverStarts: 0, waitMs: 0, cpuMs: 0 };
      t.files += 1;
      t.wallMs += p.wallMs;
      t.serverStartMs += p.serverStartMs;
      t.serverStarts += p.serverStarts;
      t.waitMs += p.waitMs;
      t.cpuMs += p.selfCpuMs + p.childCpuMs;
      byProject.set(p.project, t);
    }
    const rows = [['project', 'files', 'file time', 'server starts', 'in until()', 'CPU used']];
    for (const [name, t] of byProject) rows.push([name, t.files, s(t.wallMs), `${t.serverStarts} · ${s(t.serverStartMs)}`, s(t.waitMs), s(t.cpuMs)]);
    out.push('', 'File time per project (each file from its first hook to its last; files run two at a time):', table(rows, ['l', 'r', 'r', 'r', 'r', 'r']));
    const rowsSlow = [['project', 'file', 'wall', 'server starts', 'in until()', 'CPU test', 'CPU children', 'other']];
    for (const p of [...parts].sort((a, b) => b.wallMs - a.wallMs).slice(0, slowest)) {
      const other = Math.max(0, p.wallMs - p.serverStartMs - p.waitMs);
      rowsSlow.push([p.project, p.file.replace(/^tests\//, ''), s(p.wallMs), `${p.serverStarts} · ${s(p.serverStartMs)}`, s(p.waitMs), s(p.selfCpuMs), s(p.childCpuMs), s(other)]);
    }
    out.push(
      '',
      `The ${Math.min(slowest, parts.length)} slowest files ("CPU children": servers, ffmpeg, sqld and nginx they started; "other": wall time outside server starts and until()):`,
      table(rowsSlow, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']),
    );
  }
  return out.join('\n');
}

export function printTimes(dir) {
  const text = timesReport(dir);
  if (text) console.log(`\n== Where the time went (npm run test:times) ==\n${text}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dir = path.join(root, TIMES_DIR);
  const n = Number(process.argv[2]) || 30;
  const text = timesReport(dir, n);
  console.log(text || `Nothing recorded in ${TIMES_DIR}/ yet: run npm test (or .ci/run) first.`);
}
