// What the rest of the app tells the notifier. The share-links code calls recordEvent with
// these shapes too (via: 'link'), so the names are fixed.
export type NotificationEvent =
  | { kind: 'assigned'; mediaId: number; clientId: number }
  | { kind: 'new_version'; mediaId: number; versionNumber: number }
  | {
      kind: 'feedback' | 'note' | 'approval';
      mediaId: number;
      versionNumber: number;
      actor: string;
      via: 'client' | 'link';
      detail: string;
      /** A timeline note's time and text, for the bell's entry (issue 32). */
      note?: { ms: number; text: string };
    };

export type Audience = 'staff' | 'client';

/** The facts an email or bell line is written from, gathered when the event is recorded. */
export interface EventFacts {
  kind: NotificationEvent['kind'];
  mediaId: number;
  title: string;
  versionNumber: number | null;
  actor: string;
  via: 'client' | 'link' | null;
  detail: string;
}
