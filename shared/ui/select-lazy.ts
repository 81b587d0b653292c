/**
 * The UI kit's Select for pages that load it after hydration (the search filters): imported only
 * dynamically, so the bundler makes it a split point even though the editor imports Select.tsx
 * directly (a dynamic import of Select.tsx itself would be "ineffective" there).
 */
export { Select } from "./Select.tsx";
