// Preloaded into a test server (NODE_OPTIONS=--import): records every module the process loads
// (import and require, through Node's module hooks) and, on SIGUSR2, writes their URLs to
// $LOADED_MODULES_FILE. tests/api/lazy-modules.test.ts reads it.
import fs from 'node:fs';
import { registerHooks } from 'node:module';

const loaded = new Set();
registerHooks({
  load(url, context, next) {
    loaded.add(url);
    return next(url, context);
  },
});
process.on('SIGUSR2', () => {
  const file = process.env.LOADED_MODULES_FILE;
  // Written whole under another name first: the test polls for the file.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify([...loaded]));
  fs.renameSync(`${file}.tmp`, file);
});
