/**
 * Reciprocal-rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): an item
 * scores 1/(k + rank) in every list it appears in (rank from 1), and the sums
 * order the fused list. It needs no score calibration between BM25 and
 * cosine similarity, only ranks; k = 60 damps the weight of the very top
 * ranks so agreement between lists counts for more than one list's first
 * place.
 */
export const RRF_K = 60;

export interface Fused<K> {
  key: K;
  score: number;
  /** The item's 1-based rank in each list, null where absent. */
  ranks: (number | null)[];
}

/** Fuses ranked lists of keys (best first; a key's first occurrence counts), best fused first; ties keep list order. */
export function fuseRanks<K>(lists: readonly (readonly K[])[], k = RRF_K): Fused<K>[] {
  const byKey = new Map<K, Fused<K>>();
  lists.forEach((list, l) => {
    list.forEach((key, i) => {
      let fused = byKey.get(key);
      if (!fused) {
        fused = { key, score: 0, ranks: lists.map(() => null) };
        byKey.set(key, fused);
      }
      if (fused.ranks[l] !== null) return;
      fused.ranks[l] = i + 1;
      fused.score += 1 / (k + i + 1);
    });
  });
  const best = (f: Fused<K>) => Math.min(...f.ranks.map((r) => r ?? Number.POSITIVE_INFINITY));
  return [...byKey.values()].sort((a, b) => b.score - a.score || best(a) - best(b));
}
