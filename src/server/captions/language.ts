// Caption languages (issue 54): BCP 47 tags, kept in their canonical form (`pt-br` → `pt-BR`,
// `eng` → `en`), refused when malformed or when the language itself is unknown (`xx`), so a
// player's menu and a search by language never meet a made-up code. ICU (Node's full data)
// knows the languages; `und` (undetermined) is allowed only for streams found in a file.
import type { CaptionKind } from '../../shared/schemas/captions.ts';
import { badRequest } from '../http.ts';

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

const nameOf = (tag: string): string | undefined => {
  try {
    return names.of(tag);
  } catch {
    return undefined;
  }
};

export const UNDETERMINED = 'und';

/** The canonical tag, or null when `tag` is not a well-formed BCP 47 tag of a known language. */
export function canonicalLanguage(tag: string, allowUndetermined = false): string | null {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag.trim())[0]!;
  } catch {
    return null;
  }
  if (!canonical) return null;
  const primary = new Intl.Locale(canonical).language;
  if (primary === UNDETERMINED) return allowUndetermined ? canonical : null;
  return nameOf(primary) ? canonical : null;
}

/** The canonical tag of a language sent by staff; 400 naming the field otherwise. */
export function requireLanguage(tag: string): string {
  const canonical = canonicalLanguage(tag);
  if (!canonical) throw badRequest(`language: "${tag.slice(0, 40)}" is not a known BCP 47 language tag (e.g. en, en-GB, fr-CA, pt-BR)`);
  return canonical;
}

/** The label a track gets when staff give none: "Canadian French", "English (SDH)". */
export function defaultLabel(language: string, kind: CaptionKind): string {
  const base = (language === UNDETERMINED ? 'Unknown language' : (nameOf(language) ?? nameOf(new Intl.Locale(language).language))) ?? language;
  return kind === 'captions' ? `${base} (SDH)` : kind === 'forced' ? `${base} (forced)` : base;
}
