import { useEffect, useState } from 'react';
import { parseTagText, type AdminMedia, type MediaUpdate } from '../../../shared/schemas/media.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { applyTagAction, type TagMode } from './filtering.ts';
import { stageOptions } from '../../../shared/stages.ts';
import { putMedia, runBulk, type ClientOption } from './media-api.ts';

const KEEP = '';
const FLAG_OPTIONS = [
  { value: KEEP, label: 'No change' },
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/** 'Bulk Actions' (001 §4, §7): one request per selected item for details, client and tags. */
export function BulkDialog({
  open,
  items,
  clients,
  canAssign,
  onClose,
  onDone,
}: {
  open: boolean;
  items: AdminMedia[];
  clients: ClientOption[];
  canAssign: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [stage, setStage] = useState(KEEP);
  const [featured, setFeatured] = useState(KEEP);
  const [portfolio, setPortfolio] = useState(KEEP);
  const [clientId, setClientId] = useState('');
  const [tagText, setTagText] = useState('');
  const [tagMode, setTagMode] = useState<TagMode>('add');
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (open) {
      setStage(KEEP);
      setFeatured(KEEP);
      setPortfolio(KEEP);
      setClientId('');
      setTagText('');
      setTagMode('add');
    }
  }, [open]);

  const detailsPatch = (): MediaUpdate => {
    const p: MediaUpdate = {};
    if (stage !== KEEP) p.projectStage = stage === 'none' ? null : stage;
    if (featured !== KEEP) p.isFeatured = featured === 'true';
    if (portfolio !== KEEP) p.showInPortfolio = portfolio === 'true';
    return p;
  };
  const hasDetails = Object.keys(detailsPatch()).length > 0;
  const tags = parseTagText(tagText);

  async function run(fn: () => Promise<number>) {
    setPending(true);
    const done = await fn();
    setPending(false);
    if (done > 0) onDone();
  }

  const applyDetails = () => {
    const patch = detailsPatch();
    return run(() => runBulk(items, (m) => putMedia(m.id, patch), 'Bulk update failed'));
  };
  // 001 §7: one PUT {clientId} per selected item, already-assigned ones included (the server
  // sets the item's client and adds the assignment link when it is missing).
  const applyClient = () => {
    const id = Number(clientId);
    return run(() => runBulk(items, (m) => putMedia(m.id, { clientId: id }), 'Bulk assignment failed'));
  };
  const applyTags = () => {
    // 001 §5: bulk tag actions do nothing when the tag box is empty.
    if (tags.length === 0) return;
    return run(() => runBulk(items, (m) => putMedia(m.id, { tags: applyTagAction(m.tags, tags, tagMode) }), 'Bulk tags update failed'));
  };

  const n = items.length;
  return (
    <Dialog open={open} onClose={onClose} title="Bulk Actions" description={`${n} item${n === 1 ? '' : 's'} selected`} size="lg">
      <div className="space-y-6">
        <section aria-labelledby="bulk-details" className="space-y-3">
          <h3 id="bulk-details" className="text-sm font-semibold">
            Stage and visibility
          </h3>
          <div className="grid gap-3 sm:grid-cols-3">
            <Select
              label="Project Stage"
              value={stage}
              onChange={(e) => setStage(e.target.value)}
              options={[{ value: KEEP, label: 'No change' }, { value: 'none', label: 'None' }, ...stageOptions()]}
            />
            <Select label="Featured" value={featured} onChange={(e) => setFeatured(e.target.value)} options={FLAG_OPTIONS} />
            <Select label="Show in Portfolio" value={portfolio} onChange={(e) => setPortfolio(e.target.value)} options={FLAG_OPTIONS} />
          </div>
          <Button onClick={applyDetails} disabled={pending || !hasDetails || n === 0}>
            Apply Changes
          </Button>
        </section>

        {canAssign && (
          <section aria-labelledby="bulk-client" className="space-y-3 border-t border-line pt-5">
            <h3 id="bulk-client" className="text-sm font-semibold">
              Assign to client
            </h3>
            <Select
              label="Client"
              value={clientId}
              onChange={(e) => setClientId(e.target.value)}
              options={[{ value: '', label: 'Choose a client' }, ...clients.map((c) => ({ value: String(c.id), label: c.name }))]}
            />
            <Button onClick={applyClient} disabled={pending || !clientId || n === 0}>
              Assign Client
            </Button>
          </section>
        )}

        <section aria-labelledby="bulk-tags" className="space-y-3 border-t border-line pt-5">
          <h3 id="bulk-tags" className="text-sm font-semibold">
            Tags
          </h3>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="sr-only">Tag action</legend>
            {(
              [
                ['add', 'Add tags'],
                ['replace', 'Replace tags'],
                ['remove', 'Remove tags'],
              ] as const
            ).map(([v, label]) => (
              <label key={v} className="inline-flex items-center gap-2">
                <input type="radio" name="bulk-tag-mode" value={v} checked={tagMode === v} onChange={() => setTagMode(v)} />
                {label}
              </label>
            ))}
          </fieldset>
          <Field label="Tags to apply" hint="Separate tags with commas" value={tagText} onChange={(e) => setTagText(e.target.value)} />
          <Button onClick={applyTags} disabled={pending || n === 0}>
            Apply Tags
          </Button>
        </section>
      </div>
    </Dialog>
  );
}
