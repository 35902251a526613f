/**
 * mulberry32: a small, fast seeded generator of numbers in [0, 1). The same seed gives the same sequence, so
 * the demo data is the same in every demo store and injected faults fall on the same requests for a `seed=N`.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
