import { Switch } from '../ui/Switch.tsx';

/** "Timeline Notes" with the "Hide resolved" switch, over the notes list in both dialogs (issue 16). */
export function NotesHeading({ id, hideResolved, onHideResolved }: { id: string; hideResolved: boolean; onHideResolved: (hide: boolean) => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h3 id={id} className="text-sm font-semibold">
        Timeline Notes
      </h3>
      <div className="w-48">
        <Switch label="Hide resolved" checked={hideResolved} onChange={onHideResolved} />
      </div>
    </div>
  );
}
