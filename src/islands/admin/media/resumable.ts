// Resumable uploads to /api/uploads (tus 1.0) with tus-js-client: 16 MiB chunks, retries with
// backoff, and resume after a reload (tus keeps each upload's URL in localStorage under the
// file's fingerprint: name, type, size, last-modified). Going offline pauses the upload and
// the browser's 'online' event continues it from the server's offset.
import type { DetailedError, PreviousUpload, Upload } from 'tus-js-client';
import { apiRequest } from '../../../shared/api.ts';

/**
 * tus-js-client, loaded in the browser only (issue 51). Rendered on the server (the upload tray is
 * in the admin layout) its Node build pulled in proper-lockfile and signal-exit, which sends
 * SIGTERM again after the app's own handler: a process that had served an admin page died
 * mid-shutdown. `import.meta.env.SSR` is a build-time constant, so the server bundle holds no
 * import of it at all (tests/api/lazy-modules.test.ts reads the bundle).
 */
const tus = () => (import.meta.env.SSR ? Promise.reject(new Error('tus-js-client runs in the browser only')) : import('tus-js-client'));

export const CHUNK_SIZE = 16 * 1024 * 1024;
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000];
/** When the network looks up but the server does not answer, try again this often. */
const SERVER_RETRY_MS = 20_000;
export const CONNECTION_LOST = 'Connection lost, retrying...';
export const FILE_CHANGED = 'The file changed on disk while it was uploading (still being exported?). Choose it again once it is complete.';

const endpoint = () => new URL('/api/uploads', location.origin).href;
const TUS_HEADERS = { 'Tus-Resumable': '1.0.0' };

export type Phase = 'uploading' | 'paused' | 'retrying';

export interface ResumeInfo {
  previous: PreviousUpload;
  offset: number;
}

const newest = (list: PreviousUpload[]) => [...list].sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime));

/**
 * An earlier, interrupted upload of this very file that the server still holds, with the
 * offset it has reached. Entries the server no longer knows (finished, expired, another
 * user's) are forgotten.
 */
export async function findResumable(file: File): Promise<ResumeInfo | null> {
  const { Upload, defaultOptions } = await tus();
  const previous = await new Upload(file, { endpoint: endpoint() }).findPreviousUploads();
  for (const p of newest(previous)) {
    if (!p.uploadUrl) continue;
    try {
      const res = await apiRequest('HEAD', p.uploadUrl, undefined, TUS_HEADERS);
      const offset = Number(res.headers.get('upload-offset'));
      if (Number.isFinite(offset)) return { previous: p, offset };
    } catch {
      await defaultOptions.urlStorage.removeUpload(p.urlStorageKey);
    }
  }
  return null;
}

/** The server's `{ message }` from a tus error, else a generic text. */
function serverMessage(err: Error): string {
  const body = (err as DetailedError).originalResponse?.getBody();
  if (body) {
    try {
      const m = (JSON.parse(body) as { message?: unknown }).message;
      if (typeof m === 'string') return m;
    } catch {
      /* not JSON */
    }
  }
  return 'Upload failed';
}

/**
 * Whether the browser can still read the file it was given. A file changed on disk after it was
 * chosen cannot be read any more (NotReadableError), and a chunk sent from it fails like a lost
 * connection (a request with no answer): reading a byte tells the two apart.
 */
async function readable(file: File): Promise<boolean> {
  try {
    await file.slice(0, 1).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

const statusOf = (err: Error) => (err as DetailedError).originalResponse?.getStatus() ?? 0;
/** No answer at all, or a server/gateway failure: worth trying again. */
const isTransient = (err: Error) => {
  const s = statusOf(err);
  return s === 0 || s >= 500 || s === 409 || s === 423;
};

export interface ResumableHandlers {
  onProgress: (sent: number, total: number) => void;
  onPhase: (phase: Phase) => void;
}

/** One file's upload; `done` resolves with the upload id once every byte is on the server. */
export class ResumableUpload {
  readonly done: Promise<string>;
  private upload: Upload;
  private stopped = false;
  private paused = false;
  private waiting: (() => void) | null = null;
  private fail!: (e: Error) => void;

  /** Loads the uploader first (see `tus`). */
  static async create(file: File, handlers: ResumableHandlers): Promise<ResumableUpload> {
    return new ResumableUpload((await tus()).Upload, file, handlers);
  }

  private constructor(
    Tus: typeof Upload,
    private file: File,
    private handlers: ResumableHandlers,
  ) {
    let resolve!: (id: string) => void;
    let reject!: (e: Error) => void;
    this.done = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.fail = reject;
    this.upload = new Tus(file, {
      endpoint: endpoint(),
      chunkSize: CHUNK_SIZE,
      retryDelays: RETRY_DELAYS,
      metadata: { filename: file.name, filetype: file.type },
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => {
        if (!this.paused) handlers.onPhase('uploading');
        handlers.onProgress(sent, total);
      },
      onShouldRetry: (err) => {
        // Offline, the backoff would only burn attempts: wait for the network instead (onError).
        if (!navigator.onLine || !isTransient(err)) return false;
        handlers.onPhase('retrying');
        void this.checkFile();
        return true;
      },
      onError: (err) => {
        if (this.stopped) return;
        if (isTransient(err) || !navigator.onLine) {
          handlers.onPhase('retrying');
          void this.checkFile();
          this.waitAndRestart(navigator.onLine ? SERVER_RETRY_MS : null);
          return;
        }
        this.stopped = true;
        reject(new Error(serverMessage(err)));
      },
      onSuccess: () => {
        this.stopped = true;
        removeEventListener('offline', this.onOffline);
        resolve(this.upload.url!.split('/').pop()!);
      },
    });
    addEventListener('offline', this.onOffline);
  }

  /** Starts, continuing the newest earlier upload of the same file when the server has it. */
  async start(): Promise<void> {
    if (!(await this.checkFile())) return;
    const previous = newest(await this.upload.findPreviousUploads());
    if (previous[0]) this.upload.resumeFromPreviousUpload(previous[0]);
    this.upload.start();
  }

  pause(): void {
    this.paused = true;
    this.clearWait();
    void this.upload.abort(false);
    this.handlers.onPhase('paused');
  }

  resume(): void {
    this.paused = false;
    this.handlers.onPhase('uploading');
    this.upload.start();
  }

  /** Stops and deletes the upload on the server (tus termination). */
  async cancel(): Promise<void> {
    this.stopped = true;
    this.clearWait();
    removeEventListener('offline', this.onOffline);
    this.fail(new Error('Upload cancelled'));
    await this.upload.abort(true).catch(() => undefined);
  }

  /**
   * Fails the upload with FILE_CHANGED when the file can no longer be read: retrying would send
   * nothing forever ("Connection lost, retrying..." at 0 %). True while it is readable.
   */
  private async checkFile(): Promise<boolean> {
    if (await readable(this.file)) return true;
    if (!this.stopped) {
      this.stopped = true;
      this.clearWait();
      removeEventListener('offline', this.onOffline);
      void this.upload.abort(false).catch(() => undefined);
      this.fail(new Error(FILE_CHANGED));
    }
    return false;
  }

  // A request in flight may hang rather than fail when the network goes: stop it at once
  // and continue from the server's offset when the network is back.
  private onOffline = () => {
    if (this.stopped || this.paused) return;
    void this.upload.abort(false);
    this.handlers.onPhase('retrying');
    this.waitAndRestart(null);
  };

  private waitAndRestart(afterMs: number | null) {
    this.clearWait();
    const go = () => {
      this.clearWait();
      if (!this.stopped && !this.paused) this.upload.start();
    };
    const timer = afterMs === null ? null : setTimeout(go, afterMs);
    const online = () => setTimeout(go, 500);
    addEventListener('online', online, { once: true });
    this.waiting = () => {
      if (timer) clearTimeout(timer);
      removeEventListener('online', online);
    };
  }

  private clearWait() {
    this.waiting?.();
    this.waiting = null;
  }
}
