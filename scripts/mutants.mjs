#!/usr/bin/env node
// `npm run test:mutants [-- ID-or-area ...]`: plants each bug listed in tests/mutants/*.json, one
// at a time, runs the test that must catch it, and reports whether it did (issue 52,
// docs/testing.md). The bug is written into the working tree and the file restored afterwards
// (also on Ctrl-C); when it is in code the built server runs, the app is built into
// .mutants/dist first and the test runs against that build, so dist/ is never touched.
// Exit code 1 when any bug survived (its test passed) or could not be planted.
//   --list          print the list and exit
//   --clean-first   run each catching test once without any bug first (it must pass there)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const listDir = path.join(root, 'tests/mutants');
const outDir = path.join(root, '.mutants/dist');

export function loadMutants() {
  const all = [];
  for (const name of fs.readdirSync(listDir).filter((n) => n.endsWith('.json')).sort()) {
    for (const m of JSON.parse(fs.readFileSync(path.join(listDir, name), 'utf8'))) all.push({ ...m, area: name.replace(/\.json$/, '') });
  }
  return all;
}

/** How many times `find` occurs in `text` (not overlapping). */
export function occurrences(text, find) {
  let n = 0;
  for (let i = text.indexOf(find); i !== -1; i = text.indexOf(find, i + find.length)) n++;
  return n;
}

const isE2e = (m) => m.test.startsWith('tests/e2e/');
// Unit tests import the sources themselves; everything else runs the built app.
const needsBuild = (m) => !m.test.startsWith('tests/unit/') && /^(src|public|scripts)\//.test(m.file);

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

function build() {
  return run('npm', ['run', '--silent', 'build'], { STUDIO_OUT_DIR: outDir });
}

function runTest(m) {
  const env = { STUDIO_OUT_DIR: outDir };
  if (isE2e(m)) return run('npx', ['playwright', 'test', m.test, ...(m.grep ? ['-g', m.grep] : [])], env);
  return run('npx', ['vitest', 'run', '--project', m.project ?? 'local', m.test, ...(m.grep ? ['-t', m.grep] : [])], env);
}

function main() {
  const args = process.argv.slice(2);
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  const wanted = args.filter((a) => !a.startsWith('--'));
  const mutants = loadMutants().filter((m) => wanted.length === 0 || wanted.includes(m.id) || wanted.includes(m.area));
  if (flags.has('--list')) {
    for (const m of mutants) console.log(`${m.id.padEnd(50)} ${m.file}  →  ${m.test}${m.grep ? ` -t "${m.grep}"` : ''}`);
    return 0;
  }
  if (mutants.length === 0) {
    console.error('No mutant matches.');
    return 1;
  }
  fs.mkdirSync(path.dirname(outDir), { recursive: true });

  let restore = null;
  const onSignal = () => {
    restore?.();
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  if (flags.has('--clean-first')) {
    console.log('Building without any bug planted...');
    if (!build().ok) throw new Error('The unmutated app does not build.');
    const seen = new Set();
    for (const m of mutants) {
      const key = `${m.test}|${m.grep ?? ''}|${m.project ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const r = runTest(m);
      console.log(`${r.ok ? 'passes' : 'FAILS '} without bugs: ${m.test}${m.grep ? ` -t "${m.grep}"` : ''}`);
      if (!r.ok) {
        console.log(r.output.slice(-4000));
        return 1;
      }
    }
  }

  const results = [];
  for (const m of mutants) {
    const file = path.join(root, m.file);
    const original = fs.readFileSync(file, 'utf8');
    const n = occurrences(original, m.find);
    if (n !== 1) {
      results.push({ m, verdict: `NOT PLANTED (find text occurs ${n} times)` });
      continue;
    }
    const started = Date.now();
    restore = () => fs.writeFileSync(file, original);
    try {
      fs.writeFileSync(file, original.replace(m.find, () => m.replace));
      if (needsBuild(m)) {
        const b = build();
        if (!b.ok) {
          results.push({ m, verdict: 'NOT PLANTED (does not build)', output: b.output });
          continue;
        }
      }
      const r = runTest(m);
      results.push({ m, verdict: r.ok ? 'SURVIVED' : 'caught', output: r.ok ? r.output : '', seconds: (Date.now() - started) / 1000 });
    } finally {
      restore();
      restore = null;
    }
    const last = results.at(-1);
    console.log(`${last.verdict.padEnd(10)} ${m.id}  (${m.test}, ${last.seconds?.toFixed(0) ?? '-'} s)`);
  }
  // The last build had a bug in it: leave nothing that could be mistaken for a good build.
  fs.rmSync(outDir, { recursive: true, force: true });

  const bad = results.filter((r) => r.verdict !== 'caught');
  console.log(`\n${results.length - bad.length} of ${results.length} planted bugs caught.`);
  for (const r of bad) {
    console.log(`\n${r.verdict}: ${r.m.id} — ${r.m.file}: "${r.m.find}" → "${r.m.replace}"; test ${r.m.test}${r.m.grep ? ` -t "${r.m.grep}"` : ''}`);
    if (r.output) console.log(r.output.slice(-3000));
  }
  return bad.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());
