/**
 * Deterministic pseudo-random numbers in [0, 1) (xorshift32), for tests that shuffle, drop or
 * delay: a failing seed can be replayed.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}
