import { DEFAULT_MEDIA_MAX_SIZE } from '@scriptorium/common/api/usermedia';

/** Settings of the image library, from the environment (documented with the others in README). */
export interface UsermediaSettings {
  /** MEDIA_MAX_SIZE: the largest accepted image file in bytes; larger uploads answer 413. */
  maxSize: number;
}

export function loadUsermediaSettings(env: NodeJS.ProcessEnv = process.env): UsermediaSettings {
  const raw = env.MEDIA_MAX_SIZE;
  if (raw === undefined || raw === '') return { maxSize: DEFAULT_MEDIA_MAX_SIZE };
  const maxSize = Number(raw);
  if (!Number.isInteger(maxSize) || maxSize <= 0) {
    throw new Error(`MEDIA_MAX_SIZE must be a positive whole number of bytes, got "${raw}"`);
  }
  return { maxSize };
}
