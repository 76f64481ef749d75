import type { ZodType } from 'zod';

/** Validates form values with a shared zod schema; returns the first message per field. */
export function fieldErrors<T>(schema: ZodType<T>, values: unknown): { data?: T; errors: Record<string, string> } {
  const r = schema.safeParse(values);
  if (r.success) return { data: r.data, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = String(issue.path[0] ?? '_');
    errors[key] ??= issue.message;
  }
  return { errors };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn`, retrying `retries` more times `delayMs` apart. */
export async function withRetries<T>(fn: () => Promise<T>, retries: number, delayMs: number): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= retries) throw e;
      await sleep(delayMs);
    }
  }
}
