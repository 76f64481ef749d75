// What each tab of the gallery editor (GalleryEditor.tsx) is given: its own module, so the tabs
// and the editor do not import each other.
import type { GalleryDetail } from '../../../shared/schemas/proofing.ts';

export interface EditorProps {
  g: GalleryDetail;
  onChange: (g: GalleryDetail) => void;
  reload: () => Promise<void>;
  can: { edit: boolean; upload: boolean; share: boolean; assign: boolean };
}
