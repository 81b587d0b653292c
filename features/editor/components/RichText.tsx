import { Bold, Italic, Link2, List, ListOrdered } from "lucide-react";
import { type FormEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { cx } from "../../../shared/ui/cx.ts";
import { FieldError, INPUT_CLASS, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { FieldBox, fieldId, HINT_CLASS, LABEL_CLASS } from "./controls.tsx";

type Props = {
  path: string;
  label: string;
  value: string;
  onChange: (html: string) => void;
  /** A new value replaces what is shown only when this changes (a restored draft). */
  revision: number;
  error?: string;
  hint?: string;
};

type Command = "bold" | "italic" | "insertUnorderedList" | "insertOrderedList";
const COMMANDS: { command: Command; icon: typeof Bold; key: string }[] = [
  { command: "bold", icon: Bold, key: "bold" },
  { command: "italic", icon: Italic, key: "italic" },
  { command: "insertUnorderedList", icon: List, key: "bulletList" },
  { command: "insertOrderedList", icon: ListOrdered, key: "numberedList" },
];

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function exec(command: string, value?: string): boolean {
  try {
    return typeof document.execCommand === "function" && document.execCommand(command, false, value);
  } catch {
    return false;
  }
}

/**
 * A small rich text box (bold, italic, lists, links) producing the HTML subset the server keeps
 * (it sanitises whatever arrives). Ctrl+B and Ctrl+I work as in any editor; pasted text comes in
 * as plain text so no foreign styling sneaks in.
 */
export function RichText({ path, label, value, onChange, revision, error, hint }: Props) {
  const { t } = useTranslation("editor");
  const id = fieldId(path);
  const labelId = `${id}-label`;
  const box = useRef<HTMLDivElement>(null);
  const savedRange = useRef<Range | null>(null);
  const [active, setActive] = useState<Record<Command, boolean>>({
    bold: false,
    italic: false,
    insertUnorderedList: false,
    insertOrderedList: false,
  });
  const [linking, setLinking] = useState(false);
  const [url, setUrl] = useState("");
  const [linkError, setLinkError] = useState<string | undefined>();
  const latestValue = useRef(value);
  latestValue.current = value;

  // The box's content comes from outside only at first and when a draft replaces the form; the
  // same object otherwise, so React leaves the member's typing alone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the revision is the signal, the value is read from a ref
  const initialHtml = useMemo(() => ({ __html: latestValue.current }), [revision]);
  useEffect(() => {
    // New lines as paragraphs (Chromium's default is <div>, which the server does not keep).
    exec("defaultParagraphSeparator", "p");
  }, []);

  useEffect(() => {
    const update = () => {
      const selection = document.getSelection();
      if (!selection?.anchorNode || !box.current?.contains(selection.anchorNode)) return;
      const next = { ...active };
      for (const { command } of COMMANDS) {
        try {
          next[command] = document.queryCommandState?.(command) ?? false;
        } catch {
          next[command] = false;
        }
      }
      setActive(next);
    };
    document.addEventListener("selectionchange", update);
    return () => document.removeEventListener("selectionchange", update);
  });

  const emit = () => {
    if (box.current) onChange(box.current.innerHTML);
  };

  const run = (command: Command) => {
    box.current?.focus();
    exec(command);
    emit();
  };

  const startLink = () => {
    const selection = document.getSelection();
    savedRange.current =
      selection && selection.rangeCount > 0 && box.current?.contains(selection.anchorNode)
        ? selection.getRangeAt(0).cloneRange()
        : null;
    setUrl("https://");
    setLinkError(undefined);
    setLinking(true);
  };

  const addLink = (event?: FormEvent) => {
    event?.preventDefault();
    const href = /^https?:\/\//i.test(url.trim()) ? url.trim() : `https://${url.trim()}`;
    try {
      const parsed = new URL(href);
      if (!parsed.hostname.includes(".")) throw new Error("host");
    } catch {
      setLinkError(t("common:errors.urlInvalid"));
      return;
    }
    const editor = box.current;
    if (!editor) return;
    editor.focus();
    const selection = document.getSelection();
    if (savedRange.current && selection) {
      selection.removeAllRanges();
      selection.addRange(savedRange.current);
    }
    const hasText = Boolean(savedRange.current && !savedRange.current.collapsed);
    const done = hasText
      ? exec("createLink", href)
      : exec("insertHTML", `<a href="${escapeHtml(href)}">${escapeHtml(href)}</a>&nbsp;`);
    if (!done) editor.insertAdjacentHTML("beforeend", `<p><a href="${escapeHtml(href)}">${escapeHtml(href)}</a></p>`);
    setLinking(false);
    emit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
      event.preventDefault();
      startLink();
    }
  };

  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <FieldBox path={path}>
      <span id={labelId} className={LABEL_CLASS}>
        {label}
      </span>
      <div className="rounded-lg border border-slate-300 bg-white shadow-sm focus-within:border-brand-600 focus-within:ring-2 focus-within:ring-brand-600/30">
        <div
          role="toolbar"
          aria-label={t("description.toolbar")}
          aria-controls={id}
          className="flex flex-wrap gap-1 border-slate-200 border-b p-1"
        >
          {COMMANDS.map(({ command, icon: Icon, key }) => (
            <button
              key={command}
              type="button"
              aria-pressed={active[command]}
              title={t(`description.${key}`)}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => run(command)}
              className={cx(
                "inline-flex h-9 w-9 items-center justify-center rounded-md text-ink-900 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700",
                active[command] && "bg-slate-200 ring-1 ring-slate-400",
              )}
            >
              <Icon className="h-4 w-4" aria-hidden="true" />
              <span className="sr-only">{t(`description.${key}`)}</span>
            </button>
          ))}
          <button
            type="button"
            title={t("description.link")}
            onMouseDown={(event) => event.preventDefault()}
            onClick={startLink}
            className="inline-flex h-9 w-9 items-center justify-center rounded-md text-ink-900 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <Link2 className="h-4 w-4" aria-hidden="true" />
            <span className="sr-only">{t("description.link")}</span>
          </button>
        </div>
        {linking ? (
          <div className="flex flex-wrap items-end gap-2 border-slate-200 border-b bg-slate-50 p-2">
            <div className="min-w-0 flex-1">
              <label htmlFor={`${id}-url`} className={LABEL_CLASS}>
                {t("description.linkUrl")}
              </label>
              <input
                id={`${id}-url`}
                type="url"
                value={url}
                // biome-ignore lint/a11y/noAutofocus: the field the member just asked for
                autoFocus
                onChange={(event) => setUrl(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === "Enter") addLink(event);
                  if (event.key === "Escape") {
                    event.preventDefault();
                    setLinking(false);
                    box.current?.focus();
                  }
                }}
                aria-invalid={linkError ? true : undefined}
                aria-describedby={linkError ? `${id}-url-error` : undefined}
                className={INPUT_CLASS}
              />
              <FieldError id={`${id}-url-error`} message={linkError} />
            </div>
            <button type="button" className={SECONDARY_BUTTON} onClick={() => addLink()}>
              {t("description.addLink")}
            </button>
            <button
              type="button"
              className={SECONDARY_BUTTON}
              onClick={() => {
                setLinking(false);
                box.current?.focus();
              }}
            >
              {t("form.cancel")}
            </button>
          </div>
        ) : null}
        {/* biome-ignore lint/a11y/useSemanticElements: a rich text box has no native element */}
        <div
          ref={box}
          id={id}
          role="textbox"
          tabIndex={0}
          aria-multiline="true"
          aria-labelledby={labelId}
          aria-describedby={described || undefined}
          aria-invalid={error ? true : undefined}
          contentEditable
          suppressContentEditableWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: HTML the server sanitised, or this member's own draft in their own browser
          dangerouslySetInnerHTML={initialHtml}
          onInput={emit}
          onBlur={emit}
          onKeyDown={onKeyDown}
          onPaste={(event) => {
            event.preventDefault();
            const text = event.clipboardData.getData("text/plain");
            if (!exec("insertText", text))
              document.getSelection()?.getRangeAt(0).insertNode(document.createTextNode(text));
            emit();
          }}
          className="prose-editor min-h-32 px-3 py-2.5 text-base text-ink-900 focus:outline-none [&_a]:text-brand-800 [&_a]:underline [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-1 [&_ul]:list-disc [&_ul]:pl-6"
        />
      </div>
      {hint ? (
        <p id={`${id}-hint`} className={HINT_CLASS}>
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </FieldBox>
  );
}
