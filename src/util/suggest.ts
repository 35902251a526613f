/**
 * "Did you mean …?": the closest of a list of known words to a mistyped one, for unknown commands, flag values
 * and webhook events. Suggestions only: nothing here runs or sends the guess.
 */

/**
 * The known words nearest to `typed` (case-insensitive), best first: every word at the smallest distance, at most
 * `limit`, and none when even the nearest differs in more than half its letters (at least 2 edits allowed) or
 * in more than `maxEdits`.
 */
export function closestMatches(typed: string, known: readonly string[], { limit = 3, maxEdits = Number.POSITIVE_INFINITY } = {}): string[] {
  const word = typed.toLowerCase();
  const allowed = Math.min(maxEdits, Math.max(2, Math.floor(word.length / 2)));
  let best = Number.POSITIVE_INFINITY;
  let matches: string[] = [];
  for (const candidate of known) {
    const d = editDistance(word, candidate.toLowerCase());
    if (d > allowed || d > best) continue;
    if (d < best) {
      best = d;
      matches = [];
    }
    if (!matches.includes(candidate)) matches.push(candidate);
  }
  return matches.slice(0, limit);
}

/** The nearest known word, or undefined when nothing is near (see closestMatches). */
export function closest(typed: string, known: readonly string[]): string | undefined {
  return closestMatches(typed, known, { limit: 1 })[0];
}

/** "a", "a or b", "a, b or c": the suggestions of a sentence. */
export function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/**
 * Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`: the optimal string alignment
 * distance, so that the commonest typo, two letters swapped ("opne"), counts as one.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
