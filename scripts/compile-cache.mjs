// Node's on-disk cache of compiled modules (module.enableCompileCache, Node 22.1+): a start
// after the first skips parsing and compiling the build's bundles, about a sixth of a start's
// CPU (1.46 s against 1.23 s, measured for issue 52: the test suite starts hundreds of
// servers). Entries are checked against their source, so a new build simply adds its own. The
// folder is NODE_COMPILE_CACHE, else node-compile-cache under the system's temporary folder;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. A cache that cannot be written costs nothing.
import module from 'node:module';

module.enableCompileCache?.();

/** Writes what was compiled so far (Node writes it at exit otherwise; a killed process never does). */
export function flushCompileCache() {
  module.flushCompileCache?.();
}
