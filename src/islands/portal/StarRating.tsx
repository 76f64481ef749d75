import { useId } from 'react';
import { Star } from 'lucide-react';
import { RATING_MAX } from '../../shared/schemas/portal.ts';

const STARS = Array.from({ length: RATING_MAX }, (_, i) => i + 1);
const starName = (n: number) => `${n} star${n === 1 ? '' : 's'}`;

/** Rating input: native radios (arrow keys move between them), drawn as stars. */
export function StarRating({ value, onChange, legend = 'Rating' }: { value: number; onChange: (n: number) => void; legend?: string }) {
  const name = useId();
  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium">{legend}</legend>
      <div className="flex gap-1">
        {STARS.map((n) => (
          <label key={n} className="relative cursor-pointer">
            {/* Transparent over the star, so pointer and keyboard both reach the real radio. */}
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="peer absolute inset-0 z-10 m-0 h-full w-full cursor-pointer appearance-none opacity-0"
            />
            <span className="sr-only">{starName(n)}</span>
            <span
              aria-hidden="true"
              className="flex h-10 w-10 items-center justify-center rounded-md text-accent peer-focus-visible:outline-2 peer-focus-visible:outline-[var(--focus)] hover:bg-muted"
            >
              <Star size={24} fill={n <= value ? 'currentColor' : 'none'} />
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Read-only stars with a text equivalent. */
export function Stars({ value }: { value: number }) {
  return (
    <span role="img" aria-label={`Rated ${value} out of ${RATING_MAX}`} className="inline-flex text-accent">
      {STARS.map((n) => (
        <Star key={n} size={14} aria-hidden="true" fill={n <= value ? 'currentColor' : 'none'} />
      ))}
    </span>
  );
}
