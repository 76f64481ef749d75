// Stages the studio reuses (issue 57): a template keeps stage names, rules and due dates as days
// after the round starts; reviewers are chosen for each round (they differ per client).
import { asc, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { reviewTemplates } from '../../db/schema.ts';
import { conflict, notFound } from '../http.ts';
import type { RoundTemplate, TemplateInput } from '../../shared/schemas/rounds.ts';

export const MAX_TEMPLATES = 50;

const shape = (t: typeof reviewTemplates.$inferSelect): RoundTemplate => ({ id: t.id, name: t.name, stages: t.stages.map((s) => ({ ...s, dueInDays: s.dueInDays ?? null })) });

export async function listTemplates(): Promise<RoundTemplate[]> {
  return (await db.select().from(reviewTemplates).orderBy(asc(reviewTemplates.name))).map(shape);
}

export async function saveTemplate(input: TemplateInput, userId: string): Promise<RoundTemplate> {
  const existing = await db.select({ id: reviewTemplates.id, name: reviewTemplates.name }).from(reviewTemplates);
  if (existing.some((t) => t.name.toLowerCase() === input.name.toLowerCase())) throw conflict(`A template named “${input.name}” already exists.`);
  if (existing.length >= MAX_TEMPLATES) throw conflict(`At most ${MAX_TEMPLATES} templates: delete one first.`);
  const [row] = await db.insert(reviewTemplates).values({ name: input.name, stages: input.stages, createdBy: userId }).returning();
  return shape(row!);
}

export async function deleteTemplate(id: number): Promise<void> {
  const gone = await db.delete(reviewTemplates).where(eq(reviewTemplates.id, id)).returning({ id: reviewTemplates.id });
  if (!gone.length) throw notFound('Template not found');
}
