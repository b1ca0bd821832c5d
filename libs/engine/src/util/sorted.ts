/** Whether `value` is in `sorted` (ascending, as a typed array's sort leaves numbers): a binary search. */
export function sortedIncludes(sorted: ArrayLike<number>, value: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
