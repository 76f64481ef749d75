// POST /api/media through XMLHttpRequest: fetch() cannot report upload progress.
import { MAX_UPLOAD_MB } from '../../../shared/schemas/media.ts';
import { NetworkError, apiErrorFrom } from '../../../shared/api.ts';

export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;

// 001 §5: JPG, PNG, GIF, MP4, MOV, AVI, MKV (the server also takes WebP and WebM).
const ACCEPTED_EXT = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'mp4', 'm4v', 'mov', 'avi', 'mkv', 'webm'];
const ACCEPTED_MIME = /^(image\/(jpeg|png|gif|webp)|video\/(mp4|quicktime|x-msvideo|avi|x-matroska|webm))$/;
export const ACCEPT_ATTR = 'image/jpeg,image/png,image/gif,image/webp,video/mp4,video/quicktime,video/x-msvideo,video/x-matroska,video/webm,.mkv,.avi,.mov';

/** A message when the file may not be sent, else null. Checked before any byte goes out. */
export function checkUploadFile(file: File): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!ACCEPTED_MIME.test(file.type) && !ACCEPTED_EXT.includes(ext)) {
    return 'Unsupported file type. Use JPG, PNG, GIF, MP4, MOV, AVI or MKV.';
  }
  if (file.size > MAX_UPLOAD_BYTES) return `File is too large (maximum ${MAX_UPLOAD_MB}MB)`;
  if (file.size === 0) return 'The file is empty';
  return null;
}

export function checkPosterFile(file: File): string | null {
  if (!/^image\/(jpeg|png|gif|webp)$/.test(file.type)) return 'The poster must be a JPG, PNG, GIF or WebP image';
  return null;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export class UploadAborted extends Error {
  constructor() {
    super('Upload cancelled');
  }
}

/** Sends the form; resolves with the created item, rejects with the server's text. */
export function sendUpload(form: FormData, onProgress: (p: UploadProgress) => void, signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/media');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ loaded: e.loaded, total: e.total });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText));
        } catch {
          resolve(null);
        }
        return;
      }
      // 001 §7: upload errors are read as text; our server sends { message }.
      reject(apiErrorFrom(xhr.status, xhr.statusText, xhr.responseText, '/api/media'));
    };
    xhr.onerror = () => reject(new NetworkError());
    xhr.onabort = () => reject(new UploadAborted());
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
