// The name an uploaded file came with (a multipart part's filename, tus's Upload-Metadata
// filename), kept to show staff and clients and to name downloads. It is text typed elsewhere,
// so it follows the rules of names (src/shared/schemas/text.ts): a right-to-left override
// (`mp\u202Egnp.exe` shows as `mpexe.png`), a line break or a zero-width space is refused
// rather than stored and handed on.
import { nameText } from '../../shared/schemas/text.ts';

export const FILENAME_MAX = 255;

const schema = nameText('File name', FILENAME_MAX);

/**
 * The last path segment of `raw` (old browsers send the whole path), trimmed, or what is wrong
 * with it: a sentence such as "File name must not contain control characters (found U+000A)".
 */
export function checkFileName(raw: string | undefined): { name: string } | { problem: string } {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const parsed = schema.safeParse(base);
  return parsed.success ? { name: parsed.data } : { problem: parsed.error.issues[0]!.message };
}
