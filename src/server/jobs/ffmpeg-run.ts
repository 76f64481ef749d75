// Runs one ffmpeg conversion: spawned directly (no shell) under `nice`, progress read from
// `-progress pipe:1`, the last lines of stderr kept for the failure message, a timeout
// scaled to the clip's duration, and cancellation through an AbortSignal (SIGKILL: a
// cancelled job's outputs are thrown away anyway). A SIGKILL we did not send is the system's
// (the kernel's OOM killer, or a cgroup's MemoryMax): the error says so, for a retry with fewer
// threads (worker.ts).
import { writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { config } from '../config.ts';

// No constructor parameter properties: the worker also runs under Node's type stripping.
export class FfmpegError extends Error {
  stderrTail: string;
  cancelled: boolean;
  /** Killed by a SIGKILL this process did not send: most likely out of memory. */
  killedBySystem: boolean;
  constructor(message: string, stderrTail: string, cancelled = false, killedBySystem = false) {
    super(message);
    this.stderrTail = stderrTail;
    this.cancelled = cancelled;
    this.killedBySystem = killedBySystem;
  }
}

export interface FfmpegRun {
  args: string[];
  /** Seconds of media the run covers, for progress and the timeout. */
  durationSeconds: number | null;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Seconds ffmpeg may take per second of media, on top of a fixed minute. */
  timeoutFactor?: number;
  /**
   * Threads for decoding and filters (`-threads` before the input, `-filter_threads`); each
   * encoded output carries its own `-threads` in `args` (transcode.ts, watermark.ts).
   */
  threads?: number;
}

const STDERR_KEEP = 4000;

/**
 * Node runs a timer longer than 2^31-1 ms after 1 ms instead, so a container claiming more
 * than about 29.8 hours would have every attempt killed at once: the timeout stops there
 * (24.8 days; the lease, not this, notices a dead worker).
 */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export function timeoutFor(durationSeconds: number | null, factor = 20): number {
  const ms = 60_000 + Math.ceil(Math.max(0, durationSeconds ?? 600) * factor * 1000);
  return Number.isFinite(ms) ? Math.min(ms, MAX_TIMEOUT_MS) : MAX_TIMEOUT_MS;
}

/** `nice -n N ffmpeg ...`: nice execs ffmpeg, so the child's pid is ffmpeg's own. */
export function ffmpegCommand(args: string[], threads?: number): [string, string[]] {
  const limits = threads ? ['-threads', String(threads), '-filter_threads', String(threads)] : [];
  const full = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-progress', 'pipe:1', ...limits, ...args];
  if (config.FFMPEG_NICE > 0) return ['nice', ['-n', String(config.FFMPEG_NICE), config.FFMPEG_PATH, ...full]];
  return [config.FFMPEG_PATH, full];
}

export function runFfmpeg(run: FfmpegRun): Promise<void> {
  return new Promise((resolve, reject) => {
    if (run.signal?.aborted) return reject(new FfmpegError('Cancelled', '', true));
    const [cmd, args] = ffmpegCommand(run.args, run.threads);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    // When memory runs out, the kernel is to pick ffmpeg rather than the worker or a web process
    // (raising one's own child's score needs no privilege; nice execs ffmpeg, same pid).
    if (child.pid) writeFile(`/proc/${child.pid}/oom_score_adj`, '1000').catch(() => {});
    let stderr = '';
    let pending = '';
    let timedOut = false;
    let cancelled = false;
    const total = run.durationSeconds && run.durationSeconds > 0 ? run.durationSeconds : null;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        // out_time_us (and the misnamed out_time_ms) are microseconds.
        const m = /^out_time_(?:us|ms)=(\d+)/.exec(line);
        if (m && total) run.onProgress?.(Math.min(1, Number(m[1]) / 1e6 / total));
        else if (line === 'progress=end') run.onProgress?.(1);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-STDERR_KEEP);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutFor(run.durationSeconds, run.timeoutFactor));
    const onAbort = () => {
      cancelled = true;
      child.kill('SIGKILL');
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
    };
    child.once('error', (e) => {
      done();
      reject(new FfmpegError(`ffmpeg could not be started: ${e.message}`, ''));
    });
    child.once('close', (code, signal) => {
      done();
      const tail = stderr.trim().split('\n').slice(-12).join('\n');
      if (cancelled) return reject(new FfmpegError('Cancelled', tail, true));
      if (timedOut) return reject(new FfmpegError('ffmpeg took too long and was stopped', tail));
      if (signal === 'SIGKILL') {
        const using = run.threads ? ` while using ${run.threads} thread${run.threads === 1 ? '' : 's'}` : '';
        return reject(new FfmpegError(`ffmpeg was killed by the system${using}, most likely for lack of memory`, tail, false, true));
      }
      if (code !== 0) return reject(new FfmpegError(`ffmpeg failed (${signal ?? `exit ${code}`})`, tail));
      resolve();
    });
  });
}
