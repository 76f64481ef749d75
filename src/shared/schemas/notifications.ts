// Notification preferences and the staff bell (issue 17): one definition for the endpoints
// and the islands.
import { z } from '../zod.ts';

export const NOTIFY_MODES = ['immediately', 'digest', 'off'] as const;
export type NotifyMode = (typeof NOTIFY_MODES)[number];

export const NOTIFY_MODE_LABELS: Record<NotifyMode, string> = {
  immediately: 'Immediately',
  digest: 'Daily digest',
  off: 'Off',
};

/** PUT /api/user/notifications and PUT /api/client/notifications. */
export const notifyModeSchema = z
  .object({ mode: z.enum(NOTIFY_MODES, { error: 'mode must be "immediately", "digest" or "off"' }) })
  .strict();
export type NotifyModeInput = z.infer<typeof notifyModeSchema>;

export interface BellEvent {
  id: number;
  kind: string;
  summary: string;
  /** In-app link to the item. */
  path: string;
  actor: string;
  mediaId: number | null;
  versionNumber: number | null;
  createdAt: string;
  unread: boolean;
  /** A timeline note's time in the video (ms) and its first line; null for other kinds. */
  noteMs: number | null;
  noteLine: string | null;
}

/** GET /api/notifications. */
export interface BellAnswer {
  unread: number;
  events: BellEvent[];
  /**
   * True until this user answers the one-time question "Get an email when clients respond?"
   * (issue 32): asked once they have uploaded or assigned an item while their emails are off.
   */
  askEmail: boolean;
}

/** GET and PUT /api/user/notifications and /api/client/notifications. */
export interface NotifyModeAnswer {
  mode: NotifyMode;
  /** Where the emails go: the account's own address. */
  address: string;
}
