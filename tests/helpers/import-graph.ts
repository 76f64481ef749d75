// A small reader of a source tree's imports (issue 34): which files each .ts/.tsx/.astro file
// imports by a relative path, and the import circles among them. It reads
// `import … from '…'`, `import '…'`, `export … from '…'` and `import('…')` with a literal path;
// type-only imports count too (a type circle is still a circle between two rooms).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.astro', '.mts', '.js', '.mjs'];

const STATIC_RE = /^[ \t]*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"\n]+)['"]/gm;
const BARE_RE = /^[ \t]*import\s*['"]([^'"\n]+)['"]/gm;
const DYNAMIC_RE = /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** Every module specifier named by an import or export-from in `text`. */
export function importSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const re of [STATIC_RE, BARE_RE, DYNAMIC_RE]) {
    for (const m of text.matchAll(re)) out.push(m[1]);
  }
  return out;
}

/** The file a relative specifier names, or null (a package, an alias, or a file that is not there). */
export function resolveImport(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier.split('?')[0]);
  const candidates = [base, ...SOURCE_EXTENSIONS.map((e) => base + e), ...SOURCE_EXTENSIONS.map((e) => path.join(base, 'index' + e))];
  for (const c of candidates) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return null;
}

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (['.ts', '.tsx', '.astro'].includes(path.extname(entry.name))) out.push(full);
  }
  return out.sort();
}

/** file → the source files it imports (absolute paths), for every .ts/.tsx/.astro file under `dir`. */
export function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const targets = new Set<string>();
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, spec);
      if (target && SOURCE_EXTENSIONS.includes(path.extname(target))) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * The import circles in `graph`: one circle per strongly connected group of files (Tarjan),
 * each given as a path a → b → … → a through that group.
 */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];

  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indices.get(w)!));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      const selfLoop = (graph.get(v) ?? []).includes(v);
      if (group.length > 1 || selfLoop) groups.push(group);
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);

  // Within a group, walk from its first file back to itself (breadth-first, so the circle shown is short).
  return groups.map((group) => {
    const members = new Set(group);
    const start = [...group].sort()[0];
    const prev = new Map<string, string>();
    const queue = [start];
    const seen = new Set([start]);
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          const cycle = [start];
          for (let x = v; x !== start; x = prev.get(x)!) cycle.splice(1, 0, x);
          cycle.push(start);
          return cycle;
        }
        if (!seen.has(w)) {
          seen.add(w);
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    return [start, start];
  });
}
