import { useId, useState } from 'react';
import { ChevronDown, Download } from 'lucide-react';
import { Menu } from '../../ui/Menu.tsx';

/** Formats of GET /api/media/{id}/versions/{versionId}/markers (issue 30), as editors know them. */
export const EXPORT_FORMATS = [
  { format: 'edl', label: 'DaVinci Resolve markers (EDL)' },
  { format: 'fcpxml', label: 'Final Cut Pro markers (FCPXML)' },
  { format: 'premiere', label: 'Premiere Pro markers (XML)' },
  { format: 'csv', label: 'Spreadsheet (CSV)' },
] as const;

/**
 * "Export notes" for one version (issue 30): a menu of download links, one per format, and a
 * checkbox that adds the internal staff notes. Plain links, so the browser downloads the file
 * the server names; the menu is the shared keyboard menu (arrows, type-ahead, Escape).
 */
export function ExportNotesMenu({ mediaId, versionId, versionNumber }: { mediaId: number; versionId: number; versionNumber: number }) {
  const [internal, setInternal] = useState(false);
  const checkboxId = useId();
  const href = (format: string) => `/api/media/${mediaId}/versions/${versionId}/markers?format=${format}${internal ? '&internal=1' : ''}`;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="export-notes">
      <Menu
        label={`Export v${versionNumber} notes as`}
        labelTrigger={false}
        align="end"
        triggerTestId="export-notes-trigger"
        triggerClassName="inline-flex h-8 items-center gap-1.5 rounded-md border border-line px-3 text-sm font-medium hover:bg-muted"
        panelClassName="min-w-64"
        trigger={
          <>
            <Download size={14} aria-hidden="true" /> Export notes <ChevronDown size={14} aria-hidden="true" />
          </>
        }
        items={EXPORT_FORMATS.map((f) => ({ label: f.label, href: href(f.format), download: true }))}
      />
      <label htmlFor={checkboxId} className="inline-flex items-center gap-1.5 text-sm">
        <input id={checkboxId} type="checkbox" checked={internal} onChange={(e) => setInternal(e.target.checked)} className="h-4 w-4 accent-accent" />
        Include internal notes
      </label>
    </div>
  );
}
