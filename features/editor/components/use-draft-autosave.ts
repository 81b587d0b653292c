import { useEffect, useState } from "react";
import { clearDraft, readDraft, type StoredDraft, writeDraft } from "./drafts.ts";
import { comparable, type EventDraft, type Step } from "./form-model.ts";

/**
 * The form's draft kept in the browser (drafts.ts): written a moment after each unsaved change,
 * and a stored draft different from what the page loaded offered back (`storedDraft`) until the
 * member restores or discards it.
 */
export function useDraftAutosave(key: string, draft: EventDraft, step: Step, dirty: boolean, baseline: string) {
  const [storedDraft, setStoredDraft] = useState<StoredDraft | null>(null);

  // A saved draft different from what the page loaded is offered back.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration
  useEffect(() => {
    const stored = readDraft(key);
    if (stored && comparable(stored.form) !== baseline) setStoredDraft(stored);
    else if (stored) clearDraft(key);
  }, []);

  // Unsaved work is kept in the browser, a moment after each change.
  useEffect(() => {
    if (storedDraft) return; // not over the draft still on offer
    if (!dirty) return;
    const timer = setTimeout(() => writeDraft(key, draft, step), 400);
    return () => clearTimeout(timer);
  }, [draft, step, dirty, key, storedDraft]);

  return { storedDraft, setStoredDraft };
}
