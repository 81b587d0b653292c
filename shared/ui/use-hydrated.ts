import { useEffect, useState } from "react";

/**
 * False during server rendering and the first client render, true once hydrated: controls that
 * need JavaScript replace their plain-HTML fallback only then, so both renders match.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
