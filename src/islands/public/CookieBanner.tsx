import { useEffect, useRef, useState } from 'react';
import { X } from 'lucide-react';
import { Switch } from '../ui/Switch.tsx';
import {
  BANNER_DELAY_MS,
  BANNER_HIDE_MS,
  BANNER_SLIDE_IN_MS,
  COOKIE_SETTINGS_ATTRIBUTE,
  OPTIONAL_CATEGORIES,
  allCategories,
  readConsent,
  storeConsent,
  type ConsentChoice,
  type OptionalCategory,
} from './consent.ts';

type Phase = 'hidden' | 'mounted' | 'shown' | 'leaving';

/** What each optional category is for, as the privacy policy words it. */
const CATEGORY_TEXT: Record<OptionalCategory, { label: string; description: string }> = {
  analytics: { label: 'Analytics', description: 'Help us see which pages are visited so we can improve them.' },
  marketing: { label: 'Marketing', description: 'Measure campaigns and show relevant adverts elsewhere.' },
  preferences: { label: 'Preferences', description: 'Remember optional choices such as media settings.' },
};

/**
 * Site-wide cookie banner (000 §2, §4, §9): appears 1 s after load when nothing is stored,
 * slides in after 100 ms, hides over 300 ms. Accept All stores every category, Reject All only
 * the necessary one; Manage opens the categories to choose one by one (issue 53), and Save
 * choices stores what was chosen. Closing stores nothing. "Cookie settings" in the footer opens
 * the choices again with the stored ones, so a choice can be changed as easily as it was given.
 */
export default function CookieBanner() {
  const [phase, setPhase] = useState<Phase>('hidden');
  const [managing, setManaging] = useState(false);
  const [choice, setChoice] = useState<ConsentChoice>(allCategories(false));
  const choicesRef = useRef<HTMLHeadingElement>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(() => {
    const later = (fn: () => void, ms: number) => timers.current.push(setTimeout(fn, ms));
    const slideIn = () => {
      setPhase((p) => (p === 'shown' ? p : 'mounted'));
      later(() => setPhase('shown'), BANNER_SLIDE_IN_MS);
    };
    if (!readConsent()) later(slideIn, BANNER_DELAY_MS);
    const onSettings = (e: MouseEvent) => {
      if (!(e.target instanceof Element) || !e.target.closest(`[${COOKIE_SETTINGS_ATTRIBUTE}]`)) return;
      const stored = readConsent();
      setChoice(stored ? { analytics: stored.analytics, marketing: stored.marketing, preferences: stored.preferences } : allCategories(false));
      setManaging(true);
      slideIn();
    };
    document.addEventListener('click', onSettings);
    return () => {
      document.removeEventListener('click', onSettings);
      timers.current.forEach(clearTimeout);
    };
  }, []);

  // The choices take the place of the summary: focus follows, so a keyboard user is not left behind.
  useEffect(() => {
    if (managing && phase !== 'hidden') choicesRef.current?.focus();
  }, [managing, phase]);

  const hide = () => {
    setPhase('leaving');
    timers.current.push(
      setTimeout(() => {
        setPhase('hidden');
        setManaging(false);
      }, BANNER_HIDE_MS),
    );
  };
  const choose = (value: ConsentChoice) => {
    storeConsent(value);
    hide();
  };

  if (phase === 'hidden') return null;
  const visible = phase === 'shown';
  const btn = 'inline-flex h-10 items-center justify-center rounded-md px-4 text-sm font-medium transition-colors';
  const secondary = `${btn} border border-line hover:bg-muted`;
  const primary = `${btn} bg-accent text-accent-fg hover:opacity-90`;
  // Both views offer these two, as equals (reject as easy as accept).
  const rejectAll = (
    <button type="button" onClick={() => choose(allCategories(false))} className={secondary}>
      Reject All
    </button>
  );
  const acceptAll = (
    <button type="button" onClick={() => choose(allCategories(true))} className={primary}>
      Accept All
    </button>
  );
  return (
    <section
      aria-label="Cookie consent"
      data-testid="cookie-banner"
      data-state={phase}
      className={`fixed inset-x-0 bottom-0 z-50 p-4 transition-all duration-300 ease-out motion-reduce:transition-none ${
        visible ? 'translate-y-0 opacity-100' : 'translate-y-full opacity-0'
      }`}
    >
      <div className="relative mx-auto max-h-[calc(100dvh-2rem)] max-w-5xl overflow-y-auto rounded-xl border border-line bg-raised p-5 pr-12 text-fg shadow-2xl">
        {managing ? (
          <div className="space-y-4 text-sm" data-testid="cookie-choices">
            <h2 ref={choicesRef} tabIndex={-1} className="font-semibold outline-none">
              Choose your cookies
            </h2>
            <ul className="space-y-3">
              <li className="flex items-center justify-between gap-4">
                <span>
                  <span className="font-medium">Necessary</span>
                  <span className="block text-xs text-fg-muted">Keep the site working: your cookie choice, your theme and signing in.</span>
                </span>
                <span className="shrink-0 text-xs font-medium text-fg-muted">Always on</span>
              </li>
              {OPTIONAL_CATEGORIES.map((c) => (
                <li key={c}>
                  <Switch label={CATEGORY_TEXT[c].label} description={CATEGORY_TEXT[c].description} checked={choice[c]} onChange={(on) => setChoice((cur) => ({ ...cur, [c]: on }))} />
                </li>
              ))}
            </ul>
            <div className="flex flex-wrap justify-end gap-2">
              {rejectAll}
              <button type="button" onClick={() => choose(choice)} className={secondary}>
                Save choices
              </button>
              {acceptAll}
            </div>
          </div>
        ) : (
          <div className="flex flex-col gap-4 md:flex-row md:items-center">
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
              <button type="button" onClick={() => setManaging(true)} className={secondary}>
                Manage
              </button>
              {rejectAll}
              {acceptAll}
            </div>
          </div>
        )}
        <button type="button" onClick={hide} aria-label="Close cookie banner" className="absolute right-2 top-2 rounded p-2 text-fg-muted hover:bg-muted hover:text-fg">
          <X size={16} aria-hidden="true" />
        </button>
      </div>
    </section>
  );
}
