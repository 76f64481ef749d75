// @mentions in the note forms (issue 57 item 3): typing "@" and the start of a name offers the
// people the author may name on this item (from the server: staff see library staff and the
// item's client logins; a client sees only the other logins of their own client); choosing one
// writes "@Name " into the note, and the note goes out with who is named (those whose "@Name" is
// still in the text when it is sent).
import { useEffect, useMemo, useState } from 'react';
import { AtSign } from 'lucide-react';
import { apiJson } from '../../shared/api.ts';
import type { MentionRef, Mentionable } from '../../shared/schemas/mentions.ts';

/** The "@start" being typed at the end of the text, or null. */
export function mentionQuery(text: string): string | null {
  const m = /(?:^|\s)@([^\s@]{0,40})$/u.exec(text);
  return m ? m[1]! : null;
}

/** Those chosen whose "@Name" is still in the text. */
export function mentionsIn(text: string, chosen: readonly Mentionable[]): MentionRef[] {
  return chosen.filter((m) => text.includes(`@${m.name}`)).map((m) => m.ref);
}

/** `listUrl` '' turns it off (a thread that cannot mention: a link guest's comment, feedback). */
export function useMentions(listUrl: string, text: string, setText: (t: string) => void) {
  const [people, setPeople] = useState<Mentionable[] | null>(null);
  const [chosen, setChosen] = useState<Mentionable[]>([]);
  const query = mentionQuery(text);
  useEffect(() => {
    if (query === null || people !== null || !listUrl) return;
    apiJson<Mentionable[]>('GET', listUrl).then(setPeople, () => setPeople([]));
  }, [query, people, listUrl]);
  const offered = useMemo(() => {
    if (query === null || !people) return [];
    const q = query.toLowerCase();
    return people.filter((p) => p.name.toLowerCase().startsWith(q) || p.name.toLowerCase().split(/\s+/).some((w) => w.startsWith(q))).slice(0, 8);
  }, [query, people]);
  const choose = (p: Mentionable) => {
    setText(`${text.slice(0, text.length - (query?.length ?? 0) - 1)}@${p.name} `);
    setChosen((c) => (c.some((x) => x.name === p.name) ? c : [...c, p]));
  };
  return {
    offered,
    choose,
    /** The body's `mentions` (omitted when nobody is named). */
    body: () => {
      const refs = mentionsIn(text, chosen);
      return refs.length ? { mentions: refs } : {};
    },
    reset: () => setChosen([]),
    open: query !== null && people !== null,
  };
}

/** The offer under the note's field. */
export function MentionOffer({ mentions, label }: { mentions: ReturnType<typeof useMentions>; label: string }) {
  if (!mentions.open) return null;
  return (
    <div role="group" aria-label={label} className="rounded-md border border-line bg-raised p-1 text-sm shadow-sm" data-testid="mention-offer">
      {mentions.offered.length ? (
        <ul className="flex flex-col">
          {mentions.offered.map((p) => (
            <li key={`${p.ref.kind}-${p.ref.kind === 'staff' ? p.ref.userId : p.ref.clientUserId}`}>
              <button type="button" className="flex w-full items-center gap-2 rounded px-2 py-1 text-left hover:bg-muted focus-visible:bg-muted" onClick={() => mentions.choose(p)}>
                <AtSign size={12} aria-hidden="true" className="text-accent" />
                <span>{p.name}</span>
                <span className="text-xs text-fg-muted">{p.group}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="px-2 py-1 text-xs text-fg-muted">Nobody by that name can see this item.</p>
      )}
    </div>
  );
}
