// The audit screen's filters (issue 56), as query parameters of GET /api/audit and /api/audit.csv.
import { z } from '../zod.ts';
import { isAuditKind } from '../audit.ts';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'must be a real date');

export const auditQuerySchema = z.object({
  /** 'staff:<id>', 'client:<id>', 'link:<id>', 'system' or 'anonymous'. */
  actor: z.string().max(80).regex(/^(?:(?:staff|client|link):[\w-]{1,64}|system|anonymous)$/, 'must name a person').optional(),
  kind: z.string().max(60).refine(isAuditKind, 'must be a kind of audit row').optional(),
  objectType: z.string().regex(/^[a-z_]{1,30}$/, 'must be an object type').optional(),
  objectId: z.string().max(64).optional(),
  /** Days in UK time, both included. */
  from: day.optional(),
  to: day.optional(),
  /** The page before's `next`: rows older than this id. */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

/** The query parameters present in `params`, parsed (400 naming the field otherwise). */
export function auditQueryFrom(params: URLSearchParams) {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(auditQuerySchema.shape)) {
    const v = params.get(key);
    if (v !== null && v !== '') raw[key] = v;
  }
  return auditQuerySchema.parse(raw);
}
