// Review rounds (issue 57): an item's review in 1–5 ordered stages, each with reviewers, a due
// date and a decision rule. Shared by the API and the status board.
import { z } from '../zod.ts';
import { multilineText, nameText, plainText } from './text.ts';

export const STAGE_RULES = ['all', 'any', 'approver'] as const;
export type StageRule = (typeof STAGE_RULES)[number];
export const STAGE_RULE_LABELS: Record<StageRule, string> = { all: 'Everyone approves', any: 'Any one approves', approver: 'The named approver approves' };

export const DECISIONS = ['approve', 'approve_with_changes', 'request_changes'] as const;
export type Decision = (typeof DECISIONS)[number];
export const DECISION_LABELS: Record<Decision, string> = {
  approve: 'Approved',
  approve_with_changes: 'Approved with changes',
  request_changes: 'Changes requested',
};

export type RoundStatus = 'in_review' | 'changes_requested' | 'approved' | 'cancelled';
export const ROUND_STATUS_LABELS: Record<RoundStatus, string> = {
  in_review: 'In review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  cancelled: 'Cancelled',
};
export type StageStatus = 'waiting' | 'open' | 'closed';

export const MAX_STAGES = 5;
export const MAX_REVIEWERS_PER_STAGE = 50;

const reviewerRef = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('staff'), userId: plainText('userId', 64, { required: true }) }).strict(),
    z.object({ kind: z.literal('client'), clientUserId: z.number().int().positive() }).strict(),
  ],
  { error: 'a reviewer is { kind: "staff", userId } or { kind: "client", clientUserId }' },
);
export type ReviewerRef = z.infer<typeof reviewerRef>;

const stageInput = z
  .object({
    name: nameText('Stage name', 60, { required: true }),
    rule: z.enum(STAGE_RULES, { error: `rule must be one of ${STAGE_RULES.join(', ')}` }),
    reviewers: z
      .array(reviewerRef)
      .min(1, 'a stage needs at least one reviewer')
      .max(MAX_REVIEWERS_PER_STAGE, `at most ${MAX_REVIEWERS_PER_STAGE} a stage`),
    /** For rule 'approver': which of the reviewers decides. */
    approver: reviewerRef.optional(),
    /** When the stage's decisions are due (ISO 8601 with its offset), or none. */
    dueAt: z.iso.datetime({ offset: true, error: 'must be a date and time with its offset (ISO 8601), or null' }).nullable().optional(),
  })
  .strict();
export type StageInput = z.infer<typeof stageInput>;

/** POST /api/admin/media/{id}/round: starts a round on the item (its first stage opens). */
export const roundInputSchema = z
  .object({
    name: nameText('Round name', 80, { required: true }),
    stages: z.array(stageInput).min(1, 'a round has 1 to 5 stages').max(MAX_STAGES, 'a round has 1 to 5 stages'),
  })
  .strict();
export type RoundInput = z.infer<typeof roundInputSchema>;

/** A reviewer's decision on the version they looked at (409 when a newer one has arrived). */
export const decisionInputSchema = z
  .object({
    decision: z.enum(DECISIONS, { error: `decision must be one of ${DECISIONS.join(', ')}` }),
    note: multilineText('Note', 4000).optional().default(''),
    version: z.number({ error: 'the version number you reviewed' }).int().positive(),
  })
  .strict()
  .refine((d) => d.decision === 'approve' || d.note.length > 0, { message: 'say what should change', path: ['note'] });
export type DecisionInput = z.infer<typeof decisionInputSchema>;

/** POST /api/admin/round-templates: stages the studio reuses (reviewers are chosen per round). */
export const templateInputSchema = z
  .object({
    name: nameText('Template name', 80, { required: true }),
    stages: z
      .array(
        z
          .object({
            name: nameText('Stage name', 60, { required: true }),
            rule: z.enum(STAGE_RULES, { error: `rule must be one of ${STAGE_RULES.join(', ')}` }),
            dueInDays: z.number().int().min(1, '1 to 90 days, or null').max(90, '1 to 90 days, or null').nullable().optional().default(null),
          })
          .strict(),
      )
      .min(1, 'a template has 1 to 5 stages')
      .max(MAX_STAGES, 'a template has 1 to 5 stages'),
  })
  .strict();
export type TemplateInput = z.infer<typeof templateInputSchema>;

export interface RoundTemplate extends TemplateInput {
  id: number;
}

export interface BoardReviewer {
  id: number;
  kind: 'staff' | 'client' | 'guest';
  name: string;
  /** The decision standing on the current version, if any. */
  decision: { decision: Decision; note: string; at: string } | null;
  openedAt: string | null;
  isApprover: boolean;
  /** For the signed-in viewer: this row is them. */
  isMe: boolean;
}

export interface BoardStage {
  id: number;
  position: number;
  name: string;
  rule: StageRule;
  status: StageStatus;
  dueAt: string | null;
  overdue: boolean;
  openedAt: string | null;
  closedAt: string | null;
  /** The version number the stage closed on. */
  closedOnVersion: number | null;
  reviewers: BoardReviewer[];
  /** Decisions made on earlier versions (kept, no longer counted). */
  earlierDecisions: number;
}

export interface RoundBoard {
  id: number;
  name: string;
  origin: 'staff' | 'approval';
  status: RoundStatus;
  currentVersion: number;
  createdAt: string;
  closedAt: string | null;
  stages: BoardStage[];
  /** The current version's notes and tasks ("12 notes, 9 done"); staff only (tasks are the studio's). */
  notes: { total: number; tasks: number; tasksDone: number } | null;
  /** What the viewer can do now. */
  canDecide: boolean;
}

/** Someone a stage may name: staff who see the library, logins of the item's clients. */
export interface ReviewerCandidate {
  kind: 'staff' | 'client';
  id: string | number;
  name: string;
  /** For client logins: the client's name. */
  group: string;
}

/** POST /api/media/{id}/round/remind: one reviewer of the open stage (a board reviewer's id). */
export const remindInputSchema = z.object({ reviewerId: z.number({ error: 'reviewerId: the reviewer to remind' }).int().positive() }).strict();
