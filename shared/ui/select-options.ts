/** Pure helpers of the Select (spec §9 "Select option fields" and "Select settings"). */

export type OptionValue = string | number;

export type SelectOption = {
  value: OptionValue;
  label: string;
  disabled?: boolean;
  /** Icon class name(s), rendered as a decorative <i> before the label. */
  prefix?: string;
  /** Choosing this option navigates to this address. */
  link?: string;
  /** For dependent lists: the parentValue this option belongs to. */
  parent?: OptionValue | null;
};

/** Lower-case, accent-free text for matching ("Évry" matches "evry"). */
export function normalizeText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .trim();
}

/** Options whose label contains the query, ignoring case and accents. */
export function filterOptions<T extends SelectOption>(options: readonly T[], query: string): T[] {
  const needle = normalizeText(query);
  if (!needle) return [...options];
  return options.filter((option) => normalizeText(option.label).includes(needle));
}

/**
 * Options of a dependent list: when a parent value is set, options that declare a `parent` must
 * match it; options without `parent` always stay. No parent value keeps every option.
 */
export function optionsForParent<T extends SelectOption>(options: readonly T[], parentValue: unknown): T[] {
  if (parentValue === undefined || parentValue === null || parentValue === "") return [...options];
  const parents = (Array.isArray(parentValue) ? parentValue : [parentValue]).map(String);
  return options.filter((option) => option.parent == null || parents.includes(String(option.parent)));
}

/** Values compare as text, so "3" (from a URL or a form) matches 3. */
export function sameValue(a: OptionValue | null | undefined, b: OptionValue | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null;
  return String(a) === String(b);
}

/** A single or multiple value as a list of chosen values. */
export function valueList(value: OptionValue | readonly OptionValue[] | null | undefined): OptionValue[] {
  if (value == null || value === "") return [];
  return Array.isArray(value) ? [...value] : [value as OptionValue];
}

/** Adds or removes a value from a multiple selection, keeping the order of choice. */
export function toggleValue(values: readonly OptionValue[], value: OptionValue): OptionValue[] {
  return values.some((v) => sameValue(v, value)) ? values.filter((v) => !sameValue(v, value)) : [...values, value];
}

/** Next enabled index from `from` in direction `step` (wrapping); -1 when none is enabled. */
export function nextEnabledIndex(
  items: readonly { disabled?: boolean }[],
  from: number,
  step: 1 | -1,
  wrap = true,
): number {
  const count = items.length;
  for (let i = 1; i <= count; i++) {
    let index = from + step * i;
    if (!wrap && (index < 0 || index >= count)) return from;
    index = ((index % count) + count) % count;
    if (!items[index]?.disabled) return index;
  }
  return -1;
}
