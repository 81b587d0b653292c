/**
 * Unsaved work kept in the browser (localStorage), one draft per member and event ("new" for an
 * event not saved yet), so a reload or a crash loses nothing. Cleared after a successful save.
 */
import type { EventDraft, Step } from "./form-model.ts";

const VERSION = 1;
const PREFIX = "dossard:event-draft";

export type StoredDraft = { v: number; savedAt: string; step: Step; form: EventDraft };

export function draftKey(userId: number, eventId: number | null): string {
  return `${PREFIX}:${userId}:${eventId ?? "new"}`;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // blocked by the browser's privacy settings
  }
}

export function readDraft(key: string): StoredDraft | null {
  const raw = storage()?.getItem(key);
  if (!raw) return null;
  try {
    const draft = JSON.parse(raw) as StoredDraft;
    if (draft?.v !== VERSION || !draft.form || !Array.isArray(draft.form.courses)) return null;
    return draft;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, form: EventDraft, step: Step, now: Date = new Date()): void {
  try {
    storage()?.setItem(key, JSON.stringify({ v: VERSION, savedAt: now.toISOString(), step, form }));
  } catch {
    // storage full or refused: the page still warns before leaving
  }
}

export function clearDraft(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // nothing to clear
  }
}
