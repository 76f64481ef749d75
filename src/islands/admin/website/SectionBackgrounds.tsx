// One card per page section with its current background and 'Select New Background'
// (001 §2). Picking an image clears the video and vice versa, because the public pages
// show the video first (000 §3).
import { useState } from 'react';
import { ImagePlus, Trash2 } from 'lucide-react';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody } from '../../ui/Card.tsx';
import { MediaPicker } from './MediaPicker.tsx';
import { MediaPreview } from './MediaPreview.tsx';
import { saveSectionBackground, type WebsiteSectionEntry } from './settings-api.ts';

const SPECIAL: Record<string, string> = { who_weve_worked_with: "Who We've Worked With", lets_connect: "Let's Connect", services_cta: 'Services Call to Action' };
export const sectionLabel = (s: string) => SPECIAL[s] ?? s.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');

function SectionCard({ entry, onSaved }: { entry: WebsiteSectionEntry; onSaved: (e: WebsiteSectionEntry) => void }) {
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const current = entry.backgroundVideo ?? entry.backgroundImage;
  const headingId = `section-${entry.section}-title`;

  async function save(body: { backgroundImageId: number | null; backgroundVideoId: number | null }) {
    setBusy(true);
    const saved = await saveSectionBackground(entry.section, body);
    setBusy(false);
    if (saved) onSaved(saved);
    return !!saved;
  }

  return (
    <Card aria-labelledby={headingId} role="region" data-testid={`section-${entry.section}`}>
      <CardBody className="space-y-3">
        <div>
          <h3 id={headingId} className="font-semibold">
            {sectionLabel(entry.section)}
          </h3>
          <p className="text-xs text-fg-muted">
            {current ? (
              <>
                Current: <span data-testid="current-background">{current.title}</span> ({current.type})
              </>
            ) : (
              'No background set'
            )}
          </p>
        </div>
        <MediaPreview media={current} />
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => setPicking(true)} disabled={busy}>
            <ImagePlus size={16} aria-hidden="true" /> Select New Background
          </Button>
          {current && (
            <Button size="sm" variant="outline" disabled={busy} onClick={() => save({ backgroundImageId: null, backgroundVideoId: null })} aria-label={`Remove background of ${sectionLabel(entry.section)}`}>
              <Trash2 size={16} aria-hidden="true" /> Remove
            </Button>
          )}
        </div>
      </CardBody>
      <MediaPicker
        open={picking}
        title={`Background for ${sectionLabel(entry.section)}`}
        selectedId={current?.id ?? null}
        onClose={() => setPicking(false)}
        onSelect={async (m) => {
          const ok = await save(m.type === 'video' ? { backgroundVideoId: m.id, backgroundImageId: null } : { backgroundImageId: m.id, backgroundVideoId: null });
          if (ok) setPicking(false);
        }}
      />
    </Card>
  );
}

export function SectionBackgrounds({ sections, entries, onSaved }: { sections: readonly string[]; entries: WebsiteSectionEntry[]; onSaved: (e: WebsiteSectionEntry) => void }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {sections.map((section) => {
        const entry = entries.find((e) => e.section === section) ?? {
          section,
          backgroundImageId: null,
          backgroundVideoId: null,
          backgroundImage: null,
          backgroundVideo: null,
          updatedAt: '',
        };
        return <SectionCard key={section} entry={entry} onSaved={onSaved} />;
      })}
    </div>
  );
}
