// Display helpers for the portal (001 §2, §9).
import { RECENT_DAYS } from '../../shared/schemas/portal.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Seconds as mm:ss (h:mm:ss past an hour). */
export function formatTime(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Size in MB with two decimals, or 'Unknown'. */
export function formatSize(bytes: number | null | undefined): string {
  if (!bytes || bytes <= 0) return 'Unknown';
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'Unknown';
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

export function isRecent(iso: string, now = Date.now()): boolean {
  const t = Date.parse(iso);
  return Number.isFinite(t) && now - t <= RECENT_DAYS * DAY_MS;
}

/** 'post-production' → 'Post-production'. */
export function stageLabel(stage: string | null | undefined): string {
  if (!stage) return 'Not specified';
  return stage.charAt(0).toUpperCase() + stage.slice(1);
}

export function downloadHref(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}download=1`;
}
