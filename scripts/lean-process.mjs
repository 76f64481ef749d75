// Memory settings of a Studio process (issue 43), imported first by scripts/start.mjs and
// scripts/worker.mjs. Measured with bench/memory.mjs (figures in BENCHMARKS.md); on Node's
// defaults a web process held about 330 MB, of which the live JavaScript heap was 35 MB:
//  - V8 grows its young generation to 64 MB semi-spaces while the modules load at start and
//    never gives them back: kept at 1 MB (--max-semi-space-size=1), about 110 MB less;
//  - --optimize-for-size: V8 collects the old generation before growing it and hands free pages
//    back, about 40 MB less; renders that miss the page cache cost more CPU for it (measured
//    1.2 to 1.7 times as much per uncached admin page; cached public pages are unchanged);
//  - glibc makes up to 8 malloc arenas per core, one per busy thread, each keeping what it
//    freed: two (MALLOC_ARENA_MAX=2) save 20 to 30 MB.
// V8's heap and glibc are set up before any JavaScript runs, so the process starts itself again
// once with them (process.execve: the same pid, stdio and arguments). LEAN_MEMORY=off keeps
// Node's defaults (for a machine with memory to spare and many uncached renders).
const LEAN_FLAGS = ['--max-semi-space-size=1', '--optimize-for-size'];

const wanted = process.env.LEAN_MEMORY !== 'off' && process.env.LEAN_MEMORY !== 'false';
const applied = LEAN_FLAGS.every((f) => process.execArgv.includes(f));
if (wanted && !applied && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...LEAN_FLAGS, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || '2',
  });
}
