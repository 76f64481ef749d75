// Display helpers for the portal (001 §2, §9).
import { RECENT_DAYS } from '../../shared/schemas/portal.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export { formatDate, formatTimestamp as formatTime, stageLabel } from '../../shared/format.ts';

/** Size in MB with two decimals, or 'Unknown'. */
export function formatSize(bytes: number | null | undefined): string {
  if (!bytes || bytes <= 0) return 'Unknown';
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}


export function isRecent(iso: string, now = Date.now()): boolean {
  const t = Date.parse(iso);
  return Number.isFinite(t) && now - t <= RECENT_DAYS * DAY_MS;
}


export { downloadHref } from '../../shared/schemas/review.ts';
