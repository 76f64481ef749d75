import { useEffect, useState } from 'react';
import { X } from 'lucide-react';
import { BANNER_DELAY_MS, BANNER_HIDE_MS, BANNER_SLIDE_IN_MS, readConsent, storeConsent } from './consent.ts';

type Phase = 'hidden' | 'mounted' | 'shown' | 'leaving';

/**
 * Site-wide cookie banner (000 §2, §4, §9): appears 1 s after load when nothing is stored,
 * slides in after 100 ms, hides over 300 ms. Accept All stores every category; Reject All and
 * Manage store only the necessary one; closing stores nothing.
 */
export default function CookieBanner() {
  const [phase, setPhase] = useState<Phase>('hidden');

  useEffect(() => {
    if (readConsent()) return;
    let slide: ReturnType<typeof setTimeout> | undefined;
    const show = setTimeout(() => {
      setPhase('mounted');
      slide = setTimeout(() => setPhase('shown'), BANNER_SLIDE_IN_MS);
    }, BANNER_DELAY_MS);
    return () => {
      clearTimeout(show);
      clearTimeout(slide);
    };
  }, []);

  const hide = () => {
    setPhase('leaving');
    setTimeout(() => setPhase('hidden'), BANNER_HIDE_MS);
  };
  const choose = (all: boolean) => {
    storeConsent(all);
    hide();
  };

  if (phase === 'hidden') return null;
  const visible = phase === 'shown';
  const btn = 'inline-flex h-10 items-center justify-center rounded-md px-4 text-sm font-medium transition-colors';
  return (
    <section
      aria-label="Cookie consent"
      data-testid="cookie-banner"
      data-state={phase}
      className={`fixed inset-x-0 bottom-0 z-50 p-4 transition-all duration-300 ease-out motion-reduce:transition-none ${
        visible ? 'translate-y-0 opacity-100' : 'translate-y-full opacity-0'
      }`}
    >
      <div className="relative mx-auto flex max-w-5xl flex-col gap-4 rounded-xl border border-line bg-raised p-5 pr-12 text-fg shadow-2xl md:flex-row md:items-center">
        <div className="flex-1 text-sm">
          <h2 className="mb-1 font-semibold">We value your privacy</h2>
          <p className="text-fg-muted">
            We use cookies to keep the site working and, with your consent, to understand how it is used and to remember your preferences. Read our{' '}
            <a href="/privacy-policy" className="font-medium text-fg underline underline-offset-2 hover:text-accent">
              Privacy Policy
            </a>
            .
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" onClick={() => choose(false)} className={`${btn} border border-line hover:bg-muted`}>
            Manage
          </button>
          <button type="button" onClick={() => choose(false)} className={`${btn} border border-line hover:bg-muted`}>
            Reject All
          </button>
          <button type="button" onClick={() => choose(true)} className={`${btn} bg-accent text-accent-fg hover:opacity-90`}>
            Accept All
          </button>
        </div>
        <button type="button" onClick={hide} aria-label="Close cookie banner" className="absolute right-2 top-2 rounded p-2 text-fg-muted hover:bg-muted hover:text-fg">
          <X size={16} aria-hidden="true" />
        </button>
      </div>
    </section>
  );
}
