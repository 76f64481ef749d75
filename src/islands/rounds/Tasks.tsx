// Tasks in the detail dialog (issue 57 item 4): a note made a task (assignee, state) under each
// note, and the version's checklist above the notes ("3 of 5 done · 12 notes"), for the editor.
// Staff only; clients and link guests never see tasks.
import { useEffect, useState } from 'react';
import { ListChecks } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import { TASK_STATES, TASK_STATE_LABELS, type NoteTask, type TaskAssignee, type TaskState } from '../../shared/schemas/tasks.ts';
import { Button } from '../ui/Button.tsx';
import { formatTimestamp } from '../../shared/format.ts';

interface TaskNote {
  id: number;
  source: 'client' | 'staff' | 'link';
  noteText: string;
  timestampSeconds: number;
  task: NoteTask | null;
}

const taskUrl = (n: TaskNote) => `/api/admin/media/timeline-notes/${n.id}/task`;
const withSource = (n: TaskNote, body: object) => (n.source === 'link' ? { ...body, source: 'link' } : body);

/** Who tasks may go to; loaded once per dialog by staff who may edit. */
export function useTaskAssignees(enabled: boolean): TaskAssignee[] {
  const [list, setList] = useState<TaskAssignee[]>([]);
  useEffect(() => {
    if (!enabled) return;
    apiJson<TaskAssignee[]>('GET', '/api/admin/media/task-assignees').then(setList, () => setList([]));
  }, [enabled]);
  return list;
}

/** Answers whether the change was stored (a toast says why not). */
async function changeTask(note: TaskNote, body: { assigneeId?: string | null; state?: TaskState }, onChanged: () => void): Promise<boolean> {
  try {
    await apiJson('PUT', taskUrl(note), withSource(note, body));
    onChanged();
    return true;
  } catch (e) {
    toast({ title: 'Could not change the task', description: errorMessage(e), variant: 'destructive' });
    return false;
  }
}

/** Under a note: "Make task", or its task's assignee and state (read-only without edit:media). */
export function NoteTaskLine({ note, assignees, canEdit, onChanged }: { note: TaskNote; assignees: TaskAssignee[]; canEdit: boolean; onChanged: () => void }) {
  const { task } = note;
  const at = formatTimestamp(note.timestampSeconds);
  if (!task) {
    if (!canEdit) return null;
    return (
      <Button variant="ghost" size="sm" className="mt-1" onClick={() => void changeTask(note, {}, onChanged)} aria-label={`Make task of the note at ${at}`}>
        <ListChecks size={14} aria-hidden="true" /> Make task
      </Button>
    );
  }
  if (!canEdit) {
    return (
      <p className="mt-1 text-xs text-fg-muted" data-testid="note-task">
        {`Task: ${TASK_STATE_LABELS[task.state]} · ${task.assignee?.name ?? 'nobody yet'}`}
      </p>
    );
  }
  // The assignee may have left the list (inactive, no longer sees the library): still shown.
  const options = task.assignee && !assignees.some((a) => a.id === task.assignee!.id) ? [task.assignee, ...assignees] : assignees;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-xs" data-testid="note-task">
      <ListChecks size={14} aria-hidden="true" className="text-accent" />
      <label className="flex items-center gap-1">
        <span className="text-fg-muted">Task</span>
        <select
          aria-label={`State of the task at ${at}`}
          className="rounded border border-line bg-raised px-1.5 py-1"
          value={task.state}
          onChange={(e) => void changeTask(note, { state: e.target.value as TaskState }, onChanged)}
        >
          {TASK_STATES.map((s) => (
            <option key={s} value={s}>
              {TASK_STATE_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1">
        <span className="text-fg-muted">for</span>
        <select
          aria-label={`Assignee of the task at ${at}`}
          className="rounded border border-line bg-raised px-1.5 py-1"
          value={task.assignee?.id ?? ''}
          onChange={(e) => void changeTask(note, { assigneeId: e.target.value || null }, onChanged)}
        >
          <option value="">Nobody yet</option>
          {options.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="text-fg-muted underline-offset-4 hover:text-fg hover:underline"
        onClick={async () => {
          try {
            await apiJson('DELETE', `${taskUrl(note)}${note.source === 'link' ? '?source=link' : ''}`);
            onChanged();
          } catch (e) {
            toast({ title: 'Could not remove the task', description: errorMessage(e), variant: 'destructive' });
          }
        }}
      >
        Not a task
      </button>
    </div>
  );
}

/** The version's checklist: every task of its notes, done ones ticked, and the count. */
export function TaskChecklist({ notes, versionLabel, canEdit, onChanged }: { notes: TaskNote[]; versionLabel: string; canEdit: boolean; onChanged: () => void }) {
  // A tick shows at once; the notes as stored replace it when they come back (or the tick is undone).
  const [ticked, setTicked] = useState<Record<string, TaskState>>({});
  useEffect(() => setTicked({}), [notes]);
  const key = (n: TaskNote) => `${n.source}-${n.id}`;
  const stateOf = (n: TaskNote): TaskState => ticked[key(n)] ?? n.task!.state;
  const tasks = notes.filter((n) => n.task);
  if (!tasks.length) return null;
  const done = tasks.filter((n) => stateOf(n) === 'done').length;
  const wont = tasks.filter((n) => stateOf(n) === 'wont_do').length;
  const tick = async (n: TaskNote, state: TaskState) => {
    setTicked((t) => ({ ...t, [key(n)]: state }));
    if (!(await changeTask(n, { state }, onChanged))) {
      setTicked(({ [key(n)]: _undone, ...rest }) => rest);
    }
  };
  return (
    <section aria-labelledby="tasks-heading" className="space-y-2 rounded-lg border border-line p-3" data-testid="task-checklist">
      <h3 id="tasks-heading" className="flex flex-wrap items-baseline justify-between gap-2 text-sm font-semibold">
        <span className="flex items-center gap-2">
          <ListChecks size={16} aria-hidden="true" className="text-accent" /> {`Tasks for ${versionLabel}`}
        </span>
        <span className="text-xs font-normal text-fg-muted" data-testid="task-count">
          {`${done} of ${tasks.length} done${wont ? `, ${wont} won’t do` : ''} · ${notes.length} ${notes.length === 1 ? 'note' : 'notes'}`}
        </span>
      </h3>
      <ul className="space-y-1">
        {tasks.map((n) => (
          <li key={key(n)} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 accent-[var(--accent)]"
              checked={stateOf(n) === 'done'}
              disabled={!canEdit}
              aria-label={`Done: ${n.noteText}`}
              onChange={(e) => void tick(n, e.target.checked ? 'done' : 'todo')}
            />
            <span className={stateOf(n) === 'todo' ? '' : 'text-fg-muted line-through'}>
              <span className="font-mono text-xs">{formatTimestamp(n.timestampSeconds)}</span> {n.noteText}
              <span className="text-xs text-fg-muted">{` · ${n.task!.assignee?.name ?? 'nobody yet'}${stateOf(n) === 'wont_do' ? ' · won’t do' : ''}`}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
