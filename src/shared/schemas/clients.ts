// Client payloads (001 §5, §7), shared by /api/clients and the Client Management screen.
import { z } from '../zod.ts';
import { DEFAULT_WATERMARK_POSITION, WATERMARK_POSITIONS } from './share.ts';
import { multilineText, nameText, plainText } from './text.ts';
import { email, username } from './users.ts';
import { checkAccountPassword, newPassword } from '../passwords.ts';

/** A client login's password as it is set (issue 53, src/shared/passwords.ts). */
const password = newPassword('client');


export const clientDetailsSchema = z.object({
  name: nameText('Name', 200, { required: true }),
  email,
  phone: plainText('Phone', 50).default(''),
  company: nameText('Company', 200).default(''),
  notes: multilineText('Notes', 5000).default(''),
});
export type ClientDetails = z.infer<typeof clientDetailsSchema>;

/** Creating a client also creates its portal login. */
export const createClientSchema = clientDetailsSchema.extend({ username, password }).superRefine(checkAccountPassword('client'));
export type CreateClient = z.infer<typeof createClientSchema>;

export const resetClientPasswordSchema = z.object({ password });

/** Erasing a client (issue 56): the client's name, typed again. */
export const eraseClientSchema = z.object({ confirmName: z.string().max(300) });
export const ERASE_NAME_MISMATCH = 'confirmName: Type the client’s name exactly to erase them.';

/** What an erase did. */
export interface EraseSummary {
  clientId: number;
  logins: number;
  keptThreads: number;
  removedNotes: number;
}

/** A client as GET /api/clients lists it, with its portal login name. */
export interface ClientRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  company: string;
  notes: string;
  isActive: boolean;
  createdBy: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  username: string | null;
  /** Sees only watermarked previews ("Preview - {name}") of their media (issue 17). */
  watermarkPreviews: boolean;
  /** Downloads open only once an item's current version is approved (issue 30). */
  downloadsAfterApproval: boolean;
  /** The portal login has an authenticator app turned on (issue 56): staff may reset it. */
  secondFactor: boolean;
}

/** PUT /api/clients/{id}/downloads (issue 30); GET the same answers it. */
export const clientDownloadsSchema = z
  .object({ downloadsAfterApproval: z.boolean({ error: 'downloadsAfterApproval must be true or false' }) })
  .strict();
export type ClientDownloads = z.output<typeof clientDownloadsSchema>;

/** PUT /api/clients/{id}/watermark: on or off, and how the text looks (default "Preview - {client name}"). */
export const clientWatermarkSchema = z
  .object({
    watermark: z.boolean({ error: 'watermark must be true or false' }),
    text: plainText('Text', 120).optional().default(''),
    // Top right by default, clear of the player's controls, as for share links (issue 32).
    position: z.enum(WATERMARK_POSITIONS, { error: 'Unknown watermark position' }).optional().default(DEFAULT_WATERMARK_POSITION),
    opacity: z.number({ error: 'opacity must be a number' }).int('opacity must be a whole number').min(10, 'opacity must be from 10 to 100').max(100, 'opacity must be from 10 to 100').optional().default(60),
  })
  .strict();
export type ClientWatermarkInput = z.output<typeof clientWatermarkSchema>;

/** GET /api/clients/{id}/watermark and the answer to PUT. */
export interface ClientWatermark {
  watermark: boolean;
  text: string;
  position: (typeof WATERMARK_POSITIONS)[number];
  opacity: number;
}
