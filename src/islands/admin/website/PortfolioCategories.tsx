// Website → Portfolio: the portfolio filter's categories (issue 32). The documents' four are
// the default; a studio adds its own ("Events", "Weddings"), renames, reorders or removes them.
// An item shows under a category when one of its tags is the category's name in lower case.
import { useState, type FormEvent } from 'react';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { MAX_CATEGORIES, MAX_CATEGORY_LENGTH, portfolioCategoriesSchema } from '../../../shared/schemas/settings.ts';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { savePortfolioCategories } from './settings-api.ts';

/** Row errors by index, and one for the list as a whole. */
function problems(list: string[]): { rows: Record<number, string>; list?: string } {
  const r = portfolioCategoriesSchema.safeParse({ categories: list });
  if (r.success) return { rows: {} };
  const rows: Record<number, string> = {};
  let whole: string | undefined;
  for (const issue of r.error.issues) {
    const index = issue.path[1];
    if (typeof index === 'number') rows[index] ??= issue.message;
    else whole ??= issue.message;
  }
  return { rows, list: whole };
}

export function PortfolioCategories({ initial }: { initial: string[] }) {
  const [list, setList] = useState(initial);
  const [errors, setErrors] = useState<{ rows: Record<number, string>; list?: string }>({ rows: {} });
  const [saving, setSaving] = useState(false);

  const edit = (next: string[]) => {
    setList(next);
    // Once shown, messages follow the list as it is edited (a fixed one goes away).
    if (Object.keys(errors.rows).length || errors.list) setErrors(problems(next));
  };
  const move = (from: number, to: number) => {
    const next = [...list];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    edit(next);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = problems(list);
    setErrors(found);
    if (Object.keys(found.rows).length || found.list) return;
    setSaving(true);
    const saved = await savePortfolioCategories(list.map((c) => c.trim()));
    setSaving(false);
    if (saved) setList(saved.categories);
  }

  return (
    <Card>
      <CardHeader
        title="Portfolio categories"
        description={`The portfolio's filter buttons, after "All". An item shows under a category when one of its tags is the category's name (in lower case). Up to ${MAX_CATEGORIES}.`}
      />
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-4" aria-label="Portfolio categories">
          <ol className="space-y-3" data-testid="category-list">
            {list.map((name, i) => (
              <li key={i} className="flex items-start gap-2">
                <div className="min-w-0 flex-1">
                  <Field
                    label={`Category ${i + 1}`}
                    value={name}
                    maxLength={MAX_CATEGORY_LENGTH}
                    onChange={(e) => edit(list.map((c, j) => (j === i ? e.target.value : c)))}
                    error={errors.rows[i]}
                    hint={name.trim() ? `Tag: ${name.trim().toLowerCase()}` : undefined}
                  />
                </div>
                <div className="flex gap-1 pt-7">
                  <Button variant="ghost" size="icon" aria-label={`Move ${name || `category ${i + 1}`} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>
                    <ArrowUp size={16} aria-hidden="true" />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label={`Move ${name || `category ${i + 1}`} down`} disabled={i === list.length - 1} onClick={() => move(i, i + 1)}>
                    <ArrowDown size={16} aria-hidden="true" />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label={`Remove ${name || `category ${i + 1}`}`} disabled={list.length === 1} onClick={() => edit(list.filter((_, j) => j !== i))}>
                    <Trash2 size={16} aria-hidden="true" />
                  </Button>
                </div>
              </li>
            ))}
          </ol>
          {errors.list && (
            <p role="alert" className="text-sm text-danger">
              {errors.list}
            </p>
          )}
          <div className="flex flex-wrap gap-3">
            <Button variant="outline" disabled={list.length >= MAX_CATEGORIES} onClick={() => edit([...list, ''])}>
              <Plus size={16} aria-hidden="true" />
              Add category
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving...' : 'Save Categories'}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
