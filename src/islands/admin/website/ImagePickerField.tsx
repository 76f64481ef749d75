// An image setting (logo, favicon, social image): preview, choose from the library, Remove.
import { useId, useState } from 'react';
import { ImagePlus, Trash2 } from 'lucide-react';
import { Button } from '../../ui/Button.tsx';
import { MediaPicker } from './MediaPicker.tsx';
import { MediaPreview } from './MediaPreview.tsx';
import type { MediaRef } from './settings-api.ts';

export function ImagePickerField({
  label,
  hint,
  value,
  onChange,
  error,
  recommended,
}: {
  label: string;
  hint?: string;
  /** Width and height the image should have; a different size is pointed out. */
  recommended?: [number, number];
  value: MediaRef | null;
  onChange: (value: MediaRef | null) => void;
  error?: string;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="space-y-2 rounded-lg border border-line p-3">
      <div>
        <p id={id} className="text-sm font-medium">
          {label}
        </p>
        {hint && <p className="text-xs text-fg-muted">{hint}</p>}
      </div>
      <div className="max-w-56">
        <MediaPreview media={value} fit="contain" />
      </div>
      <p className="truncate text-xs text-fg-muted" data-testid="selected-image">
        {value ? value.title : 'None selected'}
        {value?.width && value.height ? ` (${value.width}×${value.height} px)` : ''}
      </p>
      {recommended && value?.width && value.height && (value.width !== recommended[0] || value.height !== recommended[1]) && (
        <p className="text-xs text-amber-700 dark:text-amber-400">
          Not {recommended[0]}×{recommended[1]}: social sites may crop or letterbox it.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => setOpen(true)} aria-label={`Choose ${label}`}>
          <ImagePlus size={16} aria-hidden="true" /> {value ? 'Change' : 'Choose'}
        </Button>
        {value && (
          <Button size="sm" variant="ghost" onClick={() => onChange(null)} aria-label={`Remove ${label}`}>
            <Trash2 size={16} aria-hidden="true" /> Remove
          </Button>
        )}
      </div>
      {error && <p className="text-sm text-danger">{error}</p>}
      <MediaPicker
        open={open}
        title={label}
        type="image"
        selectedId={value?.id ?? null}
        onClose={() => setOpen(false)}
        onSelect={(m) => {
          onChange(m);
          setOpen(false);
        }}
      />
    </div>
  );
}
