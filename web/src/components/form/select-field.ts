import './select.css';

/** The class of a Select's outer element; shared with DeferredSelect, which must not load select.tsx. */
export function selectFieldClass({ className, inline }: { className?: string; inline?: boolean }): string {
  return ['select-field', inline ? 'select-field-inline' : '', className ?? ''].filter(Boolean).join(' ');
}
