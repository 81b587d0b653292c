/** Finding and focusing the form's fields in error, across the four steps. */
import { STEPS, type Step, stepOfField } from "./form-model.ts";
import type { FieldErrors } from "./validate.ts";

/** The element holding a field path's control, its first focusable element, opening any folded section. */
export function focusPath(path: string): boolean {
  const box = document.querySelector<HTMLElement>(`[data-field="${path}"]`);
  if (!box) return false;
  let parent = box.parentElement;
  while (parent) {
    if (parent instanceof HTMLDetailsElement) parent.open = true;
    parent = parent.parentElement;
  }
  const target =
    box.querySelector<HTMLElement>(
      'input:not([type="hidden"]):not(:disabled), textarea, select, [role="combobox"], [role="textbox"], button:not(:disabled)',
    ) ?? box;
  target.focus({ preventScroll: true });
  target.scrollIntoView?.({ block: "center" });
  return true;
}

/** Of the fields in error, the one first on the page. */
export function firstErrorPath(errors: FieldErrors): string | null {
  let first: { path: string; el: Element } | null = null;
  for (const path of Object.keys(errors)) {
    const el = document.querySelector(`[data-field="${path}"]`);
    if (!el) continue;
    if (!first || first.el.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) first = { path, el };
  }
  return first?.path ?? Object.keys(errors)[0] ?? null;
}

export const FIRST_ERROR = "@first-error";

/** The first step, in order, holding one of these errors. */
export function firstStepWithErrors(errors: FieldErrors): Step | null {
  const steps = new Set(Object.keys(errors).map(stepOfField));
  return STEPS.find((s) => steps.has(s)) ?? null;
}
