// /admin/galleries/{id} (issue 42): one gallery's images (add from the library, upload a batch
// through the tray, sets, cover, manual order), its settings (package, PIN, expiry), selection
// lists, sharing (clients and links), what viewers picked, and its download log.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { ArrowLeft } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { formatDate } from '../../../shared/format.ts';
import type { GalleryDetail } from '../../../shared/schemas/proofing.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { $finished } from '../uploads/queue.ts';
import { ImagesTab } from './ImagesTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';
import { ListsTab } from './ListsTab.tsx';
import { SharingTab } from './SharingTab.tsx';
import { DownloadsTab, SelectionsTab } from './SelectionsTab.tsx';
import type { EditorProps } from './editor-props.ts';

const TABS = ['images', 'settings', 'lists', 'sharing', 'selections', 'downloads'] as const;
type Tab = (typeof TABS)[number];
const LABELS: Record<Tab, string> = { images: 'Images', settings: 'Settings', lists: 'Selection lists', sharing: 'Sharing', selections: 'Selections', downloads: 'Downloads' };


export default function GalleryEditor({ initial, permissions }: { initial: GalleryDetail; permissions: string[] }) {
  const [g, setG] = useState(initial);
  const [tab, setTab] = useState<Tab>(() => {
    const asked = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('tab');
    return TABS.includes(asked as Tab) ? (asked as Tab) : 'images';
  });
  // Choosing clients lists them (GET /api/clients, view:clients): without that the card only reads.
  const can = { edit: permissions.includes('edit:media'), upload: permissions.includes('upload:media'), share: permissions.includes('share:media'), assign: permissions.includes('assign:client') && permissions.includes('view:clients') };
  const reload = useCallback(async () => {
    try {
      setG(await apiJson<GalleryDetail>('GET', `/api/galleries/${initial.id}`));
    } catch (e) {
      toast({ title: 'Could not reload the gallery', description: errorMessage(e), variant: 'destructive' });
    }
  }, [initial.id]);

  // Images finished by the tray join the grid; sizes still being made are looked at again.
  const finished = useStore($finished);
  const first = useRef(finished);
  useEffect(() => {
    if (finished === first.current) return;
    const t = setTimeout(() => void reload(), 800);
    return () => clearTimeout(t);
  }, [finished, reload]);
  const waiting = g.images.some((i) => !i.ready);
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(() => void reload(), 5000);
    return () => clearInterval(t);
  }, [waiting, reload]);

  const props: EditorProps = { g, onChange: setG, reload, can };
  return (
    <div className="space-y-6">
      <div>
        <a href="/admin/galleries" className="inline-flex items-center gap-1 text-sm text-fg-muted hover:text-fg">
          <ArrowLeft size={14} aria-hidden="true" /> Galleries
        </a>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 truncate text-2xl font-semibold" title={g.title}>
            {g.title}
          </h1>
          <span className="text-sm text-fg-muted">{g.images.length.toLocaleString('en-GB')} images</span>
          {g.expired ? <Badge tone="warning">Expired {formatDate(`${g.expiresOn}T12:00:00Z`)}</Badge> : g.expiresOn ? <Badge tone="outline">Open until {formatDate(`${g.expiresOn}T12:00:00Z`)}</Badge> : null}
          {waiting && <Badge>Making sizes for {g.images.filter((i) => !i.ready).length.toLocaleString('en-GB')}</Badge>}
        </div>
      </div>
      <Tabs
        label="Gallery"
        value={tab}
        onChange={(t) => {
          setTab(t);
          history.replaceState(history.state, '', `?tab=${t}`);
        }}
        tabs={TABS.map((t) => ({ value: t, label: LABELS[t] }))}
      >
        {tab === 'images' && <ImagesTab {...props} />}
        {tab === 'settings' && <SettingsTab {...props} />}
        {tab === 'lists' && <ListsTab {...props} />}
        {tab === 'sharing' && <SharingTab {...props} />}
        {tab === 'selections' && <SelectionsTab {...props} />}
        {tab === 'downloads' && <DownloadsTab {...props} />}
      </Tabs>
    </div>
  );
}
