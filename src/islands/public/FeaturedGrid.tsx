import type { GridMedia } from './media.tsx';
import { MediaCard, useMediaDialog } from './media.tsx';

/** The home page's What We Do grid of featured media (000 §2). */
export default function FeaturedGrid({ items }: { items: GridMedia[] }) {
  const { open, dialog } = useMediaDialog();
  if (!items.length) {
    return (
      <p className="rounded-lg border border-dashed border-line px-6 py-12 text-center text-fg-muted" data-testid="featured-empty">
        No featured work available at the moment.
      </p>
    );
  }
  return (
    <>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="featured-grid">
        {items.map((item) => (
          <li key={item.id}>
            <MediaCard item={item} onOpen={open} />
          </li>
        ))}
      </ul>
      {dialog}
    </>
  );
}
