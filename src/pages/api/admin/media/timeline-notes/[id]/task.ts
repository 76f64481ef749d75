import { endpoint, json, parseId, readJson } from '../../../../../../server/http.ts';
import { requirePermission } from '../../../../../../server/auth/guard.ts';
import { removeTask, setTask } from '../../../../../../server/rounds/tasks.ts';
import { taskInputSchema } from '../../../../../../shared/schemas/tasks.ts';

/** Makes the note a task or changes it (issue 57): `{ source?, assigneeId?, state? }`; answers the task. */
export const PUT = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const { source, ...input } = await readJson(ctx.request, taskInputSchema);
  return json({ task: await setTask(source, parseId(ctx.params.id, 'Timeline note'), input, user.id) });
});

/** The note stops being a task (`?source=link` for a share-link visitor's note). */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  const source = ctx.url.searchParams.get('source') === 'link' ? 'link' : 'client';
  await removeTask(source, parseId(ctx.params.id, 'Timeline note'));
  return json({ message: 'Task removed' });
});
