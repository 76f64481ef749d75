// The public enquiry form's payload (000 §3, §5), shared by the EnquiryForm island and
// POST /api/contact, plus the staff inbox's status change.
import { z } from '../zod.ts';
import { PROJECT_TYPES, type ProjectType } from '../project-types.ts';
import { multilineText, nameText, plainText } from './text.ts';

export { PROJECT_TYPES, type ProjectType };

const PROJECT_TYPE_VALUES = PROJECT_TYPES.map((p) => p.value) as [ProjectType, ...ProjectType[]];

/** The label for a stored projectType ('' or unknown → ''). */
export function projectTypeLabel(value: string): string {
  return PROJECT_TYPES.find((p) => p.value === value)?.label ?? '';
}

export const ENQUIRY_LIMITS = { name: 100, email: 254, message: 5000 } as const;

export const enquirySchema = z.object({
  firstName: nameText('First name', ENQUIRY_LIMITS.name, { required: true }),
  lastName: nameText('Last name', ENQUIRY_LIMITS.name, { required: true }),
  email: plainText('Email', ENQUIRY_LIMITS.email, { required: true }).pipe(z.email('Enter a valid email address')),
  // Optional select: '' (or absent) means "not chosen".
  projectType: z
    .union([z.enum(PROJECT_TYPE_VALUES), z.literal('')], { error: 'Choose one of the listed project types' })
    .optional()
    .transform((v) => v ?? ''),
  message: multilineText('Message', ENQUIRY_LIMITS.message, { required: true }),
  // Honeypot: hidden from people, so anything in it means a bot (the server drops the enquiry).
  website: z.string().max(1000).optional(),
});
export type EnquiryInput = z.input<typeof enquirySchema>;
export type EnquiryData = z.output<typeof enquirySchema>;

export const ENQUIRY_STATUSES = ['new', 'read', 'archived'] as const;
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number];
export const ENQUIRY_STATUS_LABELS: Record<EnquiryStatus, string> = { new: 'New', read: 'Read', archived: 'Archived' };

export const enquiryStatusSchema = z.object({
  status: z.enum(ENQUIRY_STATUSES, { error: "Status must be 'new', 'read' or 'archived'" }),
});

/** An enquiry as GET /api/enquiries and PATCH /api/enquiries/{id} answer it. */
export interface Enquiry {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  projectType: string;
  message: string;
  status: EnquiryStatus;
  /** ISO 8601. */
  createdAt: string;
}
