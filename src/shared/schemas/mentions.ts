// @mentions in notes (issue 57 item 3): who a note names, chosen from the people the author may
// name on that item (GET …/mentionable). Shared by the note forms and the API.
import { z } from '../zod.ts';
import { plainText } from './text.ts';

export const MAX_MENTIONS = 20;

export const mentionRef = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('staff'), userId: plainText('userId', 64, { required: true }) }).strict(),
    z.object({ kind: z.literal('client'), clientUserId: z.number().int().positive() }).strict(),
  ],
  { error: 'a mention is { kind: "staff", userId } or { kind: "client", clientUserId }' },
);
export type MentionRef = z.infer<typeof mentionRef>;

export const mentionsField = z.array(mentionRef).max(MAX_MENTIONS, `at most ${MAX_MENTIONS} people`).optional().default([]);

/** Someone the author may @mention on an item, by the name the note shows. */
export interface Mentionable {
  ref: MentionRef;
  name: string;
  /** 'Studio' or the client's name. */
  group: string;
}
