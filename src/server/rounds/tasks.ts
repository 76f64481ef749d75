// Tasks (issue 57 item 4): any note (a client's, staff's or link guest's) can become a task for
// the studio, with an assignee among staff who see the library and a state (to do, done, won't
// do). Listed with the staff's notes, as a checklist per version in the detail dialog, and in the
// NLE marker exports (done ones marked). Never shown to clients or link guests: the studio's
// to-do list is its own business.
import { and, eq, inArray } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { noteTasks, permissions, rolePermissions, shareComments, timelineNotes, userRoles, users } from '../../db/schema.ts';
import { HttpError, notFound } from '../http.ts';
import type { NoteTask, TaskAssignee, TaskInput } from '../../shared/schemas/tasks.ts';

export type NoteSource = 'client' | 'link';

export const nameOf = (u: { displayName: string; username: string }) => u.displayName || u.username;

/** Active staff users holding view:media (they can open any note's item); `userId` narrows to one. */
export function libraryStaff(userId?: string) {
  return db
    .selectDistinct({ id: users.id, username: users.username, displayName: users.displayName })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(and(eq(users.isActive, true), eq(permissions.name, 'view:media'), userId ? eq(users.id, userId) : undefined));
}

/** Who a task may go to, by name. */
export async function taskAssignees(): Promise<TaskAssignee[]> {
  return (await libraryStaff()).map((u) => ({ id: u.id, name: nameOf(u) })).sort((a, b) => a.name.localeCompare(b.name));
}

const assignable = async (userId: string) => (await libraryStaff(userId)).length > 0;

const parentColumn = (source: NoteSource) => (source === 'link' ? noteTasks.shareCommentId : noteTasks.timelineNoteId);

/** The tasks of these notes (of one source), by note id. */
export async function tasksFor(source: NoteSource, noteIds: number[]): Promise<Map<number, NoteTask>> {
  const out = new Map<number, NoteTask>();
  if (!noteIds.length) return out;
  const rows = await db
    .select({ task: noteTasks, username: users.username, displayName: users.displayName })
    .from(noteTasks)
    .leftJoin(users, eq(users.id, noteTasks.assigneeId))
    .where(inArray(parentColumn(source), noteIds));
  for (const { task, username, displayName } of rows) {
    const noteId = (source === 'link' ? task.shareCommentId : task.timelineNoteId)!;
    out.set(noteId, {
      state: task.state,
      assignee: task.assigneeId && username != null ? { id: task.assigneeId, name: nameOf({ username, displayName: displayName ?? '' }) } : null,
      updatedAt: task.updatedAt.toISOString(),
      closedAt: task.closedAt?.toISOString() ?? null,
    });
  }
  return out;
}

async function noteExists(source: NoteSource, noteId: number): Promise<boolean> {
  if (source === 'link') {
    const [row] = await db.select({ id: shareComments.id }).from(shareComments).where(and(eq(shareComments.id, noteId), eq(shareComments.kind, 'note'))).limit(1);
    return !!row;
  }
  const [row] = await db.select({ id: timelineNotes.id }).from(timelineNotes).where(eq(timelineNotes.id, noteId)).limit(1);
  return !!row;
}

/**
 * Makes the note a task, or changes its task: the fields given change, the others stay (a new
 * task starts "to do", nobody assigned). An assignee must be an active staff user who sees the
 * library. Answers the task as listed.
 */
export async function setTask(source: NoteSource, noteId: number, input: Omit<TaskInput, 'source'>, actorId: string): Promise<NoteTask> {
  if (!(await noteExists(source, noteId))) throw notFound(source === 'link' ? 'Share comment not found' : 'Timeline note not found');
  if (input.assigneeId && !(await assignable(input.assigneeId))) {
    throw new HttpError(400, 'assigneeId: a task goes to an active staff user who can see the media library');
  }
  const now = new Date();
  const closing = input.state === undefined ? {} : input.state === 'todo' ? { closedAt: null, closedBy: null } : { closedAt: now, closedBy: actorId };
  const changes = {
    ...(input.assigneeId !== undefined ? { assigneeId: input.assigneeId } : {}),
    ...(input.state !== undefined ? { state: input.state } : {}),
    ...closing,
    updatedAt: now,
  };
  const parent = source === 'link' ? { shareCommentId: noteId } : { timelineNoteId: noteId };
  await db
    .insert(noteTasks)
    .values({ ...parent, assigneeId: input.assigneeId ?? null, state: input.state ?? 'todo', createdBy: actorId, updatedAt: now, ...closing })
    .onConflictDoUpdate({ target: parentColumn(source), set: changes });
  return (await tasksFor(source, [noteId])).get(noteId)!;
}

/** The note is no longer a task (its state and assignee are forgotten). */
export async function removeTask(source: NoteSource, noteId: number): Promise<void> {
  const gone = await db.delete(noteTasks).where(eq(parentColumn(source), noteId)).returning({ id: noteTasks.id });
  if (!gone.length) throw notFound('This note is not a task');
}
