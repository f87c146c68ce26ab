import type { z } from 'zod';

/**
 * One readable line per problem, naming the field by its path: `inputSchema.textFields.0.id: must not be empty`.
 * Used wherever a zod error reaches a person (IPC results, CLI errors, shape errors from the service client).
 */
export function formatZodError(error: z.ZodError, label?: string): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const body = lines.join('; ');
  return label ? `${label}: ${body}` : body;
}

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; message: string };

/** safeParse with a readable message instead of a ZodError. */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown, label?: string): ParseOutcome<T> {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, message: formatZodError(result.error, label) };
}
