import type { z } from 'zod';

/**
 * One readable line per problem, naming the field by its path: `inputSchema.textFields.0.id: must not be empty`.
 * Used wherever a zod error reaches a person (IPC results, CLI errors, shape errors from the service client).
 */
export function formatZodError(error: z.ZodError, label?: string): string {
  // Bounded: a hostile 1 MiB argument with thousands of bad entries must not produce a reply many times its size.
  const shown = error.issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => {
    const path = issue.path.slice(0, 12).map((part) => String(part).slice(0, 60)).join('.');
    const line = path ? `${path}: ${issue.message}` : issue.message;
    return line.length > MAX_ISSUE_CHARS ? `${line.slice(0, MAX_ISSUE_CHARS)}…` : line;
  });
  const more = error.issues.length - shown.length;
  const body = `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
  return label ? `${label}: ${body}` : body;
}

const MAX_ISSUES_SHOWN = 10;
const MAX_ISSUE_CHARS = 300;

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; message: string };

/** safeParse with a readable message instead of a ZodError. */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown, label?: string): ParseOutcome<T> {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, message: formatZodError(result.error, label) };
}
