/**
 * Serialises the file lifecycle per content hash inside this process: an upload that writes a
 * file and a delete that removes the last reference to it must not interleave, or the new image
 * would point at a removed file. (Across processes the window stays; see the issue note.)
 */
const tails = new Map<string, Promise<unknown>>();

export async function withFileLock<T>(sha256: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(sha256) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => undefined);
  tails.set(sha256, tail);
  try {
    return await run;
  } finally {
    if (tails.get(sha256) === tail) tails.delete(sha256);
  }
}
