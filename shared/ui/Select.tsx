import { Check, ChevronDown, X } from "lucide-react";
import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useInRouterContext, useNavigate } from "react-router";
import type { SelectColor } from "../constants.ts";
import { cx } from "./cx.ts";
import { FieldLabel } from "./FieldLabel.tsx";
import { SELECT_COLOR_CLASSES } from "./select-colors.ts";
import {
  filterOptions,
  nextEnabledIndex,
  type OptionValue,
  optionsForParent,
  type SelectOption,
  sameValue,
  toggleValue,
  valueList,
} from "./select-options.ts";

export type { OptionValue, SelectOption } from "./select-options.ts";

type Navigate = (to: string) => void;

type SelectBaseProps = {
  /** Id of the combobox element (generated when absent). */
  id?: string;
  /** Name of the hidden input(s) submitted with a plain HTML form. */
  name?: string;
  options: readonly SelectOption[];
  placeholder?: string;
  /** Value of the parent list: a change resets this one to empty; options with `parent` are filtered by it. */
  parentValue?: OptionValue | readonly OptionValue[] | null;
  size?: "sm" | "md";
  /** Tailwind max-height class of the list. */
  height?: string;
  disabled?: boolean;
  /** Shows a filter box (case- and accent-insensitive). */
  searchable?: boolean;
  /** Text shown when no option is left (defaults to the translated "no option" text). */
  emptyMessage?: string;
  /** Label of an explicit "none" choice (single mode), also shown when the value is null. */
  nullValueText?: string;
  /** Extra classes for every option. */
  optionClass?: string;
  /** Shows a button that empties the value. */
  clearable?: boolean;
  color?: SelectColor;
  /** Visible label. */
  label?: ReactNode;
  /** Accessible name when there is no visible label. */
  "aria-label"?: string;
  className?: string;
  /** How an option's link is followed; defaults to the router when inside one, else window.location. */
  navigate?: Navigate;
};

export type SingleSelectProps = SelectBaseProps & {
  multiple?: false;
  /** Controlled value; leave undefined to let the Select keep its own. */
  value?: OptionValue | null;
  defaultValue?: OptionValue | null;
  onChange?: (value: OptionValue | null, option: SelectOption | null) => void;
};

export type MultipleSelectProps = SelectBaseProps & {
  multiple: true;
  value?: readonly OptionValue[];
  defaultValue?: readonly OptionValue[];
  /** An empty selection is reported as [] (removing the last tag empties the value). */
  onChange?: (value: OptionValue[], options: SelectOption[]) => void;
};

export type SelectProps = SingleSelectProps | MultipleSelectProps;

type Item = SelectOption & { isNull?: boolean };

const SIZE_CLASSES = {
  sm: { field: "min-h-8 gap-1 px-2 py-0.5 text-sm", option: "px-2 py-1 text-sm" },
  md: { field: "min-h-10 gap-2 px-3 py-1 text-base", option: "px-3 py-2 text-base" },
} as const;

/** Leaves the page for an absolute address; the fallback when no router is around. */
export function assignLocation(to: string): void {
  window.location.assign(to);
}

const isExternal = (to: string) => /^[a-z][a-z\d+.-]*:/i.test(to) || to.startsWith("//");

/** Hands the router's navigate function to a Select; rendered only inside a router. */
function RouterNavigateBridge({ target }: { target: RefObject<Navigate | null> }) {
  const navigate = useNavigate();
  useEffect(() => {
    target.current = (to) => {
      void navigate(to);
    };
    return () => {
      target.current = null;
    };
  }, [navigate, target]);
  return null;
}

function OptionPrefix({ className }: { className?: string }) {
  return className ? <i className={cx(className, "shrink-0")} aria-hidden="true" /> : null;
}

/**
 * Accessible select (combobox + listbox pattern) with search, multiple choice as removable tags,
 * dependent lists, option links and hidden inputs for plain HTML forms.
 */
export function Select(props: SelectProps) {
  const {
    id,
    name,
    options,
    placeholder,
    parentValue,
    size = "md",
    height = "max-h-72",
    disabled = false,
    searchable = false,
    emptyMessage,
    nullValueText,
    optionClass,
    clearable = false,
    color = "blue",
    label,
    "aria-label": ariaLabel,
    className,
    navigate,
  } = props;
  const multiple = props.multiple === true;
  const { t } = useTranslation("ui");
  const colors = SELECT_COLOR_CLASSES[color] ?? SELECT_COLOR_CLASSES.blue;
  const sizes = SIZE_CLASSES[size];

  const autoId = useId();
  const comboId = id ?? `select-${autoId}`;
  const labelId = `${comboId}-label`;
  const listId = `${comboId}-listbox`;
  const optionId = (index: number) => `${comboId}-option-${index}`;

  const rootRef = useRef<HTMLDivElement>(null);
  const comboRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const routerNavigate = useRef<Navigate | null>(null);
  const inRouter = useInRouterContext();

  const controlled = props.value !== undefined;
  const [ownValue, setOwnValue] = useState<OptionValue | readonly OptionValue[] | null>(
    props.defaultValue ?? (multiple ? [] : null),
  );
  const current = controlled ? props.value : ownValue;
  const chosenValues = valueList(current as OptionValue | OptionValue[] | null);

  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [activeIndex, setActiveIndex] = useState(-1);

  const visibleOptions = optionsForParent(options, parentValue);
  const buildItems = (text: string): Item[] => {
    const filtered = searchable ? filterOptions(visibleOptions, text) : visibleOptions;
    const showNone = Boolean(nullValueText) && !multiple && text.trim() === "";
    return showNone ? [{ value: "", label: nullValueText as string, isNull: true }, ...filtered] : filtered;
  };
  const items = buildItems(query);

  const findOption = (value: OptionValue) => options.find((option) => sameValue(option.value, value));
  const chosenOptions = chosenValues.map(findOption).filter((option): option is SelectOption => Boolean(option));
  const isSelected = (item: Item) =>
    item.isNull ? chosenValues.length === 0 : chosenValues.some((value) => sameValue(value, item.value));

  const commit = (next: OptionValue | OptionValue[] | null) => {
    if (!controlled) setOwnValue(next);
    if (props.multiple === true) {
      const list = next as OptionValue[];
      props.onChange?.(
        list,
        list.map(findOption).filter((option): option is SelectOption => Boolean(option)),
      );
    } else {
      const single = next as OptionValue | null;
      props.onChange?.(single, single === null ? null : (findOption(single) ?? null));
    }
  };

  // A new parent value empties a dependent list (and says so through onChange).
  const parentKey = JSON.stringify(parentValue ?? null);
  const previousParent = useRef(parentKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the parent value only
  useEffect(() => {
    if (previousParent.current === parentKey) return;
    previousParent.current = parentKey;
    commit(multiple ? [] : null);
  }, [parentKey]);

  const firstEnabled = () => nextEnabledIndex(items, -1, 1, false);

  const openMenu = () => {
    if (disabled || open) return;
    setOpen(true);
    const selectedIndex = items.findIndex((item) => !item.disabled && isSelected(item));
    setActiveIndex(selectedIndex >= 0 ? selectedIndex : firstEnabled());
  };

  const closeMenu = (returnFocus: boolean) => {
    setOpen(false);
    setQuery("");
    setActiveIndex(-1);
    if (returnFocus) comboRef.current?.focus();
  };

  // The filter box takes the focus while the menu is open.
  useEffect(() => {
    if (open && searchable) searchRef.current?.focus();
  }, [open, searchable]);

  // Keep the active option visible when moving with the keyboard.
  useEffect(() => {
    if (!open || activeIndex < 0) return;
    const element = listRef.current?.querySelector<HTMLElement>(`[data-index="${activeIndex}"]`);
    element?.scrollIntoView?.({ block: "nearest" });
  }, [open, activeIndex]);

  // A pointer press outside, or the focus leaving the Select, closes the menu.
  useEffect(() => {
    const root = rootRef.current;
    if (!open || !root) return;
    const onPointerDown = (event: MouseEvent) => {
      if (!root.contains(event.target as Node)) closeMenu(false);
    };
    const onFocusOut = (event: FocusEvent) => {
      if (!root.contains(event.relatedTarget as Node | null)) closeMenu(false);
    };
    document.addEventListener("mousedown", onPointerDown);
    root.addEventListener("focusout", onFocusOut);
    return () => {
      document.removeEventListener("mousedown", onPointerDown);
      root.removeEventListener("focusout", onFocusOut);
    };
  });

  const followLink = (link: string) => {
    const go = navigate ?? (isExternal(link) ? null : routerNavigate.current) ?? assignLocation;
    go(link);
  };

  const choose = (item: Item) => {
    if (item.disabled) return;
    if (multiple) {
      commit(toggleValue(chosenValues, item.value));
    } else {
      commit(item.isNull ? null : item.value);
      closeMenu(true);
    }
    if (item.link) followLink(item.link);
  };

  const removeValue = (value: OptionValue) => {
    commit(chosenValues.filter((chosen) => !sameValue(chosen, value)));
    comboRef.current?.focus();
  };

  const clear = () => {
    commit(multiple ? [] : null);
    closeMenu(true);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (disabled) return;
    const inSearch = event.currentTarget === searchRef.current;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        event.preventDefault();
        if (!open) return openMenu();
        if (event.altKey) return;
        const step = event.key === "ArrowDown" ? 1 : -1;
        const next = activeIndex < 0 && step === -1 ? nextEnabledIndex(items, items.length, -1, false) : undefined;
        setActiveIndex(next ?? nextEnabledIndex(items, activeIndex, step, false));
        return;
      }
      case "Home":
      case "End":
        if (!open || inSearch) return;
        event.preventDefault();
        setActiveIndex(event.key === "Home" ? firstEnabled() : nextEnabledIndex(items, items.length, -1, false));
        return;
      case " ":
        if (inSearch) return;
        event.preventDefault();
        if (!open) return openMenu();
        if (items[activeIndex]) choose(items[activeIndex]);
        return;
      case "Enter":
        event.preventDefault();
        if (!open) return openMenu();
        if (items[activeIndex]) choose(items[activeIndex]);
        return;
      case "Escape":
        if (!open) return;
        event.preventDefault();
        event.stopPropagation();
        closeMenu(true);
        return;
      case "Tab":
        if (open) closeMenu(false);
        return;
    }
  };

  const activeDescendant = open && activeIndex >= 0 && items[activeIndex] ? optionId(activeIndex) : undefined;
  const noValue = chosenValues.length === 0;
  const singleOption = !multiple ? chosenOptions[0] : undefined;
  const accessibleName = label ? undefined : (ariaLabel ?? placeholder ?? t("select.placeholder"));

  let display: ReactNode;
  if (singleOption) {
    display = (
      <span className="flex min-w-0 items-center gap-2">
        <OptionPrefix className={singleOption.prefix} />
        <span className="truncate">{singleOption.label}</span>
      </span>
    );
  } else if (multiple && !noValue) {
    display = <span className="sr-only">{t("select.selectedCount", { count: chosenValues.length })}</span>;
  } else if (noValue && nullValueText && !multiple) {
    display = <span className="truncate">{nullValueText}</span>;
  } else {
    display = <span className="truncate text-gray-600">{placeholder ?? t("select.placeholder")}</span>;
  }

  return (
    <div ref={rootRef} className={cx("relative w-full", className)}>
      <FieldLabel id={labelId} label={label} />
      <div
        className={cx(
          "flex w-full flex-wrap items-center rounded-md border bg-white text-gray-900",
          sizes.field,
          open ? colors.open : "border-gray-400",
          disabled && "cursor-not-allowed bg-gray-100 text-gray-700",
        )}
      >
        {multiple && chosenOptions.length > 0 ? (
          <ul aria-label={t("select.chosen")} className="flex flex-wrap gap-1">
            {chosenOptions.map((option) => (
              <li
                key={String(option.value)}
                className={cx(
                  "inline-flex items-center gap-1 rounded px-2 py-0.5 text-sm ring-1 ring-inset",
                  colors.tag,
                )}
              >
                <OptionPrefix className={option.prefix} />
                <span>{option.label}</span>
                <button
                  type="button"
                  disabled={disabled}
                  aria-label={t("select.remove", { label: option.label })}
                  onClick={() => removeValue(option.value)}
                  className={cx(
                    "rounded p-0.5 hover:bg-white/60 focus-visible:outline-none focus-visible:ring-2 disabled:cursor-not-allowed",
                    colors.focus,
                  )}
                >
                  <X className="size-3.5" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <div
          ref={comboRef}
          id={comboId}
          role="combobox"
          tabIndex={disabled ? -1 : 0}
          aria-labelledby={label ? labelId : undefined}
          aria-label={accessibleName}
          aria-controls={listId}
          aria-expanded={open}
          aria-haspopup="listbox"
          aria-disabled={disabled || undefined}
          aria-activedescendant={searchable ? undefined : activeDescendant}
          onClick={() => (open ? closeMenu(true) : openMenu())}
          onKeyDown={onKeyDown}
          className={cx(
            "flex min-w-16 flex-1 items-center justify-between gap-2 self-stretch rounded focus-visible:outline-none focus-visible:ring-2",
            colors.focus,
            disabled ? "cursor-not-allowed" : "cursor-pointer",
          )}
        >
          {display}
          <ChevronDown
            className={cx("size-4 shrink-0 text-gray-700 transition-transform", open && "rotate-180")}
            aria-hidden="true"
          />
        </div>
        {clearable && !noValue && !disabled ? (
          <button
            type="button"
            aria-label={t("select.clear")}
            onClick={clear}
            className={cx(
              "rounded p-1 text-gray-700 hover:bg-gray-100 focus-visible:outline-none focus-visible:ring-2",
              colors.focus,
            )}
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        ) : null}
      </div>

      <div
        hidden={!open}
        className="absolute z-30 mt-1 w-full overflow-hidden rounded-md border border-gray-300 bg-white shadow-lg"
      >
        {searchable && open ? (
          <div className="border-b border-gray-200 p-2">
            <input
              ref={searchRef}
              type="search"
              value={query}
              aria-label={t("select.search")}
              placeholder={t("select.searchPlaceholder")}
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={activeDescendant}
              autoComplete="off"
              onChange={(event) => {
                setQuery(event.target.value);
                setActiveIndex(nextEnabledIndex(buildItems(event.target.value), -1, 1, false));
              }}
              onKeyDown={onKeyDown}
              className={cx(
                "w-full rounded border border-gray-400 px-2 py-1 text-sm text-gray-900 placeholder:text-gray-600 focus-visible:outline-none focus-visible:ring-2",
                colors.focus,
              )}
            />
          </div>
        ) : null}
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          aria-multiselectable={multiple || undefined}
          aria-labelledby={label ? labelId : undefined}
          aria-label={accessibleName}
          // Keep the focus on the combobox or filter box while an option is pressed.
          onMouseDown={(event) => event.preventDefault()}
          className={cx("overflow-auto py-1", height)}
        >
          {items.map((item, index) => {
            const selected = isSelected(item);
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard is handled by the combobox (aria-activedescendant)
              <div
                key={item.isNull ? "__null__" : String(item.value)}
                id={optionId(index)}
                data-index={index}
                role="option"
                tabIndex={-1}
                aria-selected={selected}
                aria-disabled={item.disabled || undefined}
                onClick={() => choose(item)}
                onMouseMove={() => !item.disabled && activeIndex !== index && setActiveIndex(index)}
                className={cx(
                  "flex cursor-pointer items-center gap-2",
                  sizes.option,
                  index === activeIndex && colors.active,
                  selected && cx("font-semibold", colors.selected),
                  item.disabled && "cursor-not-allowed text-gray-500",
                  item.isNull && "italic",
                  optionClass,
                )}
              >
                <OptionPrefix className={item.prefix} />
                <span className="min-w-0 flex-1 truncate">{item.label}</span>
                {selected ? <Check className={cx("size-4 shrink-0", colors.check)} aria-hidden="true" /> : null}
              </div>
            );
          })}
        </div>
        {open && items.length === 0 ? (
          <p role="status" className="px-3 py-2 text-sm text-gray-700">
            {emptyMessage ?? t("select.noOption")}
          </p>
        ) : null}
      </div>

      {name && !multiple ? <input type="hidden" name={name} value={chosenValues[0] ?? ""} disabled={disabled} /> : null}
      {name && multiple
        ? chosenValues.map((value) => (
            <input key={String(value)} type="hidden" name={name} value={value} disabled={disabled} />
          ))
        : null}
      {inRouter && !navigate ? <RouterNavigateBridge target={routerNavigate} /> : null}
    </div>
  );
}
