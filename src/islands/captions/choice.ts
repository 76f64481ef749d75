// Which captions this browser shows (issue 54): "off" or a track's language and kind
// ("en-GB/subtitles"), one choice for every player of the page, remembered in localStorage.
// A live session's follower gets the presenter's choice until they pick one themselves.
import { atom } from 'nanostores';
import { CAPTION_CHOICE_OFF } from '../../shared/caption-choice.ts';

const KEY = 'studio.captions';

function stored(): string {
  try {
    return (typeof localStorage !== 'undefined' && localStorage.getItem(KEY)) || CAPTION_CHOICE_OFF;
  } catch {
    return CAPTION_CHOICE_OFF;
  }
}

export const $captionChoice = atom<string>(typeof window === 'undefined' ? CAPTION_CHOICE_OFF : stored());
/** Whether the viewer picked from a menu on this page (a live follower's own choice then stays). */
export const $chosenHere = atom(false);

/** The viewer's own pick: shown everywhere and remembered. */
export function chooseCaptions(choice: string): void {
  $chosenHere.set(true);
  $captionChoice.set(choice);
  try {
    localStorage.setItem(KEY, choice);
  } catch {
    /* private mode: this page only */
  }
}

/** A presenter's pick, for a follower who has not chosen: shown, not remembered. */
export function followCaptions(choice: string): void {
  if (!$chosenHere.get()) $captionChoice.set(choice);
}

export const choiceOf = (t: { language: string; kind: string }) => `${t.language}/${t.kind}`;

/**
 * The track a choice shows among `tracks`: the same language and kind, else the same language
 * (another kind), else the same language without its region; none for "off".
 */
export function trackFor<T extends { language: string; kind: string }>(tracks: readonly T[], choice: string): T | null {
  if (choice === CAPTION_CHOICE_OFF) return null;
  const [language = '', kind] = choice.split('/');
  const primary = (l: string) => l.split('-')[0]!.toLowerCase();
  return (
    tracks.find((t) => t.language === language && t.kind === kind) ??
    tracks.find((t) => t.language === language && t.kind !== 'forced') ??
    tracks.find((t) => primary(t.language) === primary(language) && t.kind !== 'forced') ??
    null
  );
}
