// Search across captions and notes (issue 54, item 5), on the media page (the whole library,
// GET /api/search), in the portal (the client's items, GET /api/client/search) and on a share
// page (the link's items, GET /api/share/:token/search): words or
// "a phrase", accents and case ignored; each hit shows where it is and its words in context, and
// opens the item's player paused at that moment (useOpenAt).
import { useEffect, useRef, useState } from 'react';
import { Captions, MessageSquare } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { formatTimestamp } from '../../shared/format.ts';
import type { SearchAnswer, SearchHit } from '../../shared/schemas/search.ts';
import { SearchInput } from '../ui/SearchInput.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';

/** Typing pauses this long before a search goes out. */
const SETTLE_MS = 250;

function Hit({ hit, onOpen }: { hit: SearchHit; onOpen: (hit: SearchHit) => void }) {
  const where = [hit.versionNumber ? `v${hit.versionNumber}` : null, formatTimestamp(hit.atMs / 1000)].filter(Boolean).join(' · ');
  const what = hit.kind === 'cue' ? `${hit.label ?? hit.language ?? 'Captions'}` : 'Note';
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(hit)}
        className="flex w-full items-start gap-3 rounded-md px-3 py-2 text-left hover:bg-muted focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
        aria-label={`${hit.title}, ${what} at ${where}: ${hit.snippet.map((p) => p.text).join('')}`}
      >
        {hit.kind === 'cue' ? <Captions size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-fg-muted" /> : <MessageSquare size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-fg-muted" />}
        <span className="min-w-0">
          <span className="block text-sm font-medium text-fg">
            {hit.title} <span className="font-normal text-fg-muted">· {what} · {where}</span>
          </span>
          <span className="block text-sm text-fg-muted" data-testid="search-snippet">
            {hit.snippet.map((p, i) =>
              p.hit ? (
                <mark key={i} className="rounded-sm bg-accent/25 px-0.5 text-fg">
                  {p.text}
                </mark>
              ) : (
                <span key={i}>{p.text}</span>
              ),
            )}
          </span>
        </span>
      </button>
    </li>
  );
}

export function LibrarySearch({ endpoint, onOpen }: { endpoint: '/api/search' | '/api/client/search' | `/api/share/${string}/search`; onOpen: (hit: SearchHit) => void }) {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  // Only the newest search's answer is shown (an older one may come back later).
  const latest = useRef(0);

  useEffect(() => {
    const asked = ++latest.current;
    if (!q.trim()) {
      setHits(null);
      setError('');
      setBusy(false);
      return;
    }
    setBusy(true);
    const timer = setTimeout(() => {
      apiJson<SearchAnswer>('GET', `${endpoint}?q=${encodeURIComponent(q)}`).then(
        (answer) => {
          if (asked !== latest.current) return;
          setHits(answer.hits);
          setError('');
          setBusy(false);
        },
        (e) => {
          if (asked !== latest.current) return;
          setHits(null);
          setError(errorMessage(e, 'Could not search'));
          setBusy(false);
        },
      );
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [q, endpoint]);

  return (
    <section aria-label="Search captions and notes" className="space-y-2 rounded-xl border border-line bg-raised p-4 shadow-sm">
      <SearchInput label="Search captions and notes" placeholder='Words or "a phrase" in captions and notes…' value={q} onValueChange={setQ} className="h-10" />
      {busy && !hits && (
        <div className="space-y-2" aria-hidden="true">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-2/3" />
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {hits && (
        <div aria-busy={busy}>
          <p className="text-xs text-fg-muted" role="status">
            {hits.length === 0 ? `No captions or notes match “${q.trim()}”.` : `${hits.length}${hits.length === 50 ? '+' : ''} ${hits.length === 1 ? 'match' : 'matches'}`}
          </p>
          {hits.length > 0 && (
            <ul aria-label="Caption and note matches" className="mt-1 max-h-80 space-y-0.5 overflow-y-auto">
              {hits.map((h) => (
                <Hit key={`${h.kind}-${h.trackId ?? h.noteId}-${h.atMs}-${h.mediaId}`} hit={h} onOpen={onOpen} />
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
