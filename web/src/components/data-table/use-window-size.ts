import { useEffect, useState } from 'react';

/** Spec section 9: window resize handling is debounced 250 ms. */
export const RESIZE_DEBOUNCE_MS = 250;

export interface WindowSize {
  width: number;
  height: number;
}

function currentSize(): WindowSize {
  return { width: window.innerWidth, height: window.innerHeight };
}

/** The window's inner size, updated 250 ms after resizing stops (e.g. for the 500 px image-table threshold). */
export function useWindowSize(): WindowSize {
  const [size, setSize] = useState(currentSize);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setSize(currentSize()), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return size;
}

/** Spec section 9: table scroll height is the window height minus 360 px, at least 100 px. */
export function tableScrollHeight(windowHeight: number): number {
  return Math.max(100, windowHeight - 360);
}
