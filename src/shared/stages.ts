// Project stages (issue 53): one list for the upload, edit and bulk dialogs, the detail's Edit
// tab, the library's and the portal's stage filters, and the server's check. Before, the dialogs
// offered Concept … Completed, Delivered and the Edit tab Review and Final; migration 0024 stored
// 'final' as 'completed', so every stored value is one of these (or a value written outside the
// app, which the selects keep showing rather than lose on save).
import { stageLabel } from './format.ts';

export const PROJECT_STAGES = ['concept', 'pre-production', 'production', 'post-production', 'review', 'completed', 'delivered'] as const;
export type ProjectStage = (typeof PROJECT_STAGES)[number];

const known = (stage: string): boolean => (PROJECT_STAGES as readonly string[]).includes(stage);

/**
 * The list, then any stage among `used` outside it (stored by an older release or outside the
 * app) by name: a select keeps showing such a value rather than lose it on save, and a filter
 * can still find it.
 */
export function stagesWith(used: Iterable<string | null | undefined>): string[] {
  const other = new Set([...used].filter((s): s is string => !!s && !known(s)));
  return [...PROJECT_STAGES, ...[...other].sort()];
}

/** Options of a stage select or filter: `stagesWith(used)` with their labels. */
export const stageOptions = (used: Iterable<string | null | undefined> = []) => stagesWith(used).map((s) => ({ value: s, label: stageLabel(s) }));
