// Issue 34: the rooms of src/ keep their doors. Islands (browser code) import nothing from
// src/server (types they need live in src/shared), and no file imports itself round a circle.
// The import walker is tests/helpers/import-graph.ts: import/export-from statements and
// import('…') with a relative path, .ts/.tsx/.astro files, type-only imports included.
import path from 'node:path';
import { expect, test } from 'vitest';
import { importCycles, importGraph, importSpecifiers, resolveImport } from '../helpers/import-graph.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');
const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const graph = importGraph(SRC);

test('the walker sees the tree: hundreds of files, and the imports it is known to have', () => {
  expect(graph.size).toBeGreaterThan(300);
  const mw = graph.get(path.join(SRC, 'middleware.ts'))!.map(rel);
  expect(mw).toContain('src/server/auth/sessions.ts');
});

test('no island imports from src/server', () => {
  const islands = path.join(SRC, 'islands') + path.sep;
  const server = path.join(SRC, 'server') + path.sep;
  const crossings = [...graph]
    .filter(([file]) => file.startsWith(islands))
    .flatMap(([file, targets]) => targets.filter((t) => t.startsWith(server)).map((t) => `${rel(file)} → ${rel(t)}`));
  expect(crossings, 'islands take types from src/shared; move the type there').toEqual([]);
});

test('no import cycles under src/', () => {
  const cycles = importCycles(graph).map((c) => c.map(rel).join(' → '));
  expect(cycles, 'move the piece both files need down into a module of its own').toEqual([]);
});

// The walker itself.
test('importSpecifiers reads every form of import and re-export, and nothing else', () => {
  const text = [
    "import { a, b } from './a.ts';",
    "import type {\n  C,\n  D,\n} from '../c.ts';",
    "import './side-effect.css';",
    "export { e } from './e.ts';",
    "export * from './f.ts';",
    "export type { G } from './g.ts';",
    "const H = lazy(() => import('./H.tsx'));",
    "import React from 'react';",
    "const s = 'import x from \"./not-an-import.ts\"';",
    '// a comment that says from ./nowhere',
  ].join('\n');
  expect(importSpecifiers(text).sort()).toEqual(['../c.ts', './H.tsx', './a.ts', './e.ts', './f.ts', './g.ts', './side-effect.css', 'react'].sort());
  expect(resolveImport(path.join(SRC, 'middleware.ts'), 'astro')).toBeNull();
  expect(resolveImport(path.join(SRC, 'middleware.ts'), './server/config.ts')).toBe(path.join(SRC, 'server/config.ts'));
});

test('importCycles reports a circle as the path round it, and only circles', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
    ['e', ['e']],
  ]);
  expect(importCycles(g).map((c) => c.join(' → ')).sort()).toEqual(['a → b → c → a', 'e → e']);
  expect(importCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
});
