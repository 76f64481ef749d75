// Tasks (issue 57 item 4): a note made a task, with an assignee among staff and a state. Shared
// by the API and the detail dialog's checklist.
import { z } from '../zod.ts';

export const TASK_STATES = ['todo', 'done', 'wont_do'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const TASK_STATE_LABELS: Record<TaskState, string> = { todo: 'To do', done: 'Done', wont_do: 'Won’t do' };

/** PUT /api/admin/media/timeline-notes/{id}/task: makes the note a task, or changes it. */
export const taskInputSchema = z
  .object({
    /** As for resolving: 'link' for a share-link visitor's note (a share comment's id). */
    source: z.enum(['client', 'link'], { error: 'source must be "client" or "link"' }).optional().default('client'),
    assigneeId: z.string({ error: 'assigneeId must be the id of a staff user, or null' }).min(1, 'assigneeId must be the id of a staff user, or null').max(64, 'assigneeId must be the id of a staff user, or null').nullable().optional(),
    state: z.enum(TASK_STATES, { error: `state must be one of ${TASK_STATES.join(', ')}` }).optional(),
  })
  .strict();
export type TaskInput = z.infer<typeof taskInputSchema>;

export interface NoteTask {
  state: TaskState;
  assignee: { id: string; name: string } | null;
  updatedAt: string;
  /** When it became done or won't do (null while to do). */
  closedAt: string | null;
}

/** Someone a task may be given to: an active staff user who sees the library. */
export interface TaskAssignee {
  id: string;
  name: string;
}
