import type { ButtonHTMLAttributes } from 'react';
import { useHydrated } from './hydration.ts';

type Variant = 'primary' | 'secondary' | 'ghost' | 'destructive' | 'outline';
type Size = 'sm' | 'md' | 'lg' | 'icon';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-accent text-accent-fg hover:opacity-90',
  secondary: 'bg-muted text-fg hover:bg-line',
  outline: 'border border-line bg-transparent text-fg hover:bg-muted',
  ghost: 'bg-transparent text-fg hover:bg-muted',
  destructive: 'bg-red-700 text-white hover:bg-red-800',
};
const SIZES: Record<Size, string> = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'h-9 w-9 p-0',
};

export function buttonClass(variant: Variant = 'primary', size: Size = 'md', extra = '') {
  return `inline-flex items-center justify-center gap-2 rounded-md font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${VARIANTS[variant]} ${SIZES[size]} ${extra}`;
}

export function Button({
  variant = 'primary',
  size = 'md',
  className = '',
  type = 'button',
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: Size }) {
  // Until its island has hydrated a button would do nothing (or submit natively): disabled, and shown so.
  const hydrated = useHydrated();
  return <button type={type} className={buttonClass(variant, size, className)} disabled={disabled || !hydrated} {...rest} />;
}
