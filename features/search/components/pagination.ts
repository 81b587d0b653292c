/** The page numbers a pagination bar shows: first, last, the current one and its neighbours, gaps as null. */
export function pageWindow(current: number, pages: number, neighbours = 1): (number | null)[] {
  if (pages <= 1) return pages === 1 ? [1] : [];
  const page = Math.min(Math.max(1, current), pages);
  const shown = new Set<number>([1, pages]);
  for (let p = page - neighbours; p <= page + neighbours; p++) if (p >= 1 && p <= pages) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const result: (number | null)[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const previous = sorted[i - 1];
    if (previous !== undefined && sorted[i] - previous === 2) result.push(previous + 1);
    else if (previous !== undefined && sorted[i] - previous > 2) result.push(null);
    result.push(sorted[i]);
  }
  return result;
}
