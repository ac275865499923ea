import { type KeyboardEvent, type Ref, useEffect, useRef, useState } from 'react';
import './search-box.css';

/** Spec section 9: search input is debounced 250 ms. */
export const SEARCH_DEBOUNCE_MS = 250;

export interface SearchBoxProps {
  /** Accessible name and placeholder, e.g. 'Search images'. */
  label: string;
  value: string;
  /** Called 250 ms after the user stops typing (at once on Enter or Escape). */
  onChange(value: string): void;
  ref?: Ref<HTMLInputElement>;
  id?: string;
  className?: string;
}

export function SearchBox({ label, value, onChange, ref, id, className }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const lastSent = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latestOnChange = useRef(onChange);

  useEffect(() => {
    latestOnChange.current = onChange;
  }, [onChange]);

  // A value set from outside (e.g. a filter reset) replaces what is in the box.
  useEffect(() => {
    if (value !== lastSent.current) {
      lastSent.current = value;
      clearTimeout(timer.current);
      setText(value);
    }
  }, [value]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const emit = (next: string) => {
    clearTimeout(timer.current);
    if (next === lastSent.current) return;
    lastSent.current = next;
    latestOnChange.current(next);
  };

  const change = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => emit(next), SEARCH_DEBOUNCE_MS);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      emit(text);
    } else if (event.key === 'Escape' && text !== '') {
      // Only a non-empty box swallows Escape; otherwise it still closes the surrounding dialog.
      event.preventDefault();
      event.stopPropagation();
      setText('');
      emit('');
    }
  };

  return (
    <input
      ref={ref}
      id={id}
      type="search"
      className={`search-box${className ? ` ${className}` : ''}`}
      aria-label={label}
      placeholder={label}
      value={text}
      autoComplete="off"
      onChange={(event) => change(event.target.value)}
      onKeyDown={onKeyDown}
    />
  );
}
