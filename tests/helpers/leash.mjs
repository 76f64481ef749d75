// Preloaded (node --import) into every app process a test starts (tests/helpers/processes.ts).
// Its stdin is a pipe that only the test process holds, and the system closes a pipe when the
// process holding it ends, however it ends: a failed test, a worker killed with SIGKILL. This
// process then ends too: SIGTERM (the app's own shutdown), SIGKILL if it is still there 5 s on.
let ending = false;
function end() {
  if (ending) return;
  ending = true;
  process.kill(process.pid, 'SIGTERM');
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 5000).unref();
}
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
process.stdin.resume();
// The pipe alone must not keep an app that has finished (a worker told to stop) running.
process.stdin.unref();
