/** Colour palette of the Select (spec §9: blue by default plus 16 others). */
import type { SelectColor } from "../constants.ts";

export type SelectColorClasses = {
  /** Chosen-item tags in multiple mode. */
  tag: string;
  /** Text of a selected option. */
  selected: string;
  /** Check mark beside a selected option. */
  check: string;
  /** Option under the keyboard or pointer. */
  active: string;
  /** Focus ring of the controls. */
  focus: string;
  /** Border of the field while the menu is open. */
  open: string;
};

/** Full class strings per colour, written out so Tailwind's scanner sees every one of them. */
export const SELECT_COLOR_CLASSES: Record<SelectColor, SelectColorClasses> = {
  blue: {
    tag: "bg-blue-100 text-blue-900 ring-blue-300",
    selected: "text-blue-900",
    check: "text-blue-700",
    active: "bg-blue-100",
    focus: "focus-visible:ring-blue-600",
    open: "border-blue-600",
  },
  orange: {
    tag: "bg-orange-100 text-orange-900 ring-orange-300",
    selected: "text-orange-900",
    check: "text-orange-700",
    active: "bg-orange-100",
    focus: "focus-visible:ring-orange-600",
    open: "border-orange-600",
  },
  yellow: {
    tag: "bg-yellow-100 text-yellow-900 ring-yellow-300",
    selected: "text-yellow-900",
    check: "text-yellow-700",
    active: "bg-yellow-100",
    focus: "focus-visible:ring-yellow-600",
    open: "border-yellow-600",
  },
  red: {
    tag: "bg-red-100 text-red-900 ring-red-300",
    selected: "text-red-900",
    check: "text-red-700",
    active: "bg-red-100",
    focus: "focus-visible:ring-red-600",
    open: "border-red-600",
  },
  purple: {
    tag: "bg-purple-100 text-purple-900 ring-purple-300",
    selected: "text-purple-900",
    check: "text-purple-700",
    active: "bg-purple-100",
    focus: "focus-visible:ring-purple-600",
    open: "border-purple-600",
  },
  amber: {
    tag: "bg-amber-100 text-amber-900 ring-amber-300",
    selected: "text-amber-900",
    check: "text-amber-700",
    active: "bg-amber-100",
    focus: "focus-visible:ring-amber-600",
    open: "border-amber-600",
  },
  lime: {
    tag: "bg-lime-100 text-lime-900 ring-lime-300",
    selected: "text-lime-900",
    check: "text-lime-700",
    active: "bg-lime-100",
    focus: "focus-visible:ring-lime-600",
    open: "border-lime-600",
  },
  green: {
    tag: "bg-green-100 text-green-900 ring-green-300",
    selected: "text-green-900",
    check: "text-green-700",
    active: "bg-green-100",
    focus: "focus-visible:ring-green-600",
    open: "border-green-600",
  },
  emerald: {
    tag: "bg-emerald-100 text-emerald-900 ring-emerald-300",
    selected: "text-emerald-900",
    check: "text-emerald-700",
    active: "bg-emerald-100",
    focus: "focus-visible:ring-emerald-600",
    open: "border-emerald-600",
  },
  teal: {
    tag: "bg-teal-100 text-teal-900 ring-teal-300",
    selected: "text-teal-900",
    check: "text-teal-700",
    active: "bg-teal-100",
    focus: "focus-visible:ring-teal-600",
    open: "border-teal-600",
  },
  cyan: {
    tag: "bg-cyan-100 text-cyan-900 ring-cyan-300",
    selected: "text-cyan-900",
    check: "text-cyan-700",
    active: "bg-cyan-100",
    focus: "focus-visible:ring-cyan-600",
    open: "border-cyan-600",
  },
  sky: {
    tag: "bg-sky-100 text-sky-900 ring-sky-300",
    selected: "text-sky-900",
    check: "text-sky-700",
    active: "bg-sky-100",
    focus: "focus-visible:ring-sky-600",
    open: "border-sky-600",
  },
  violet: {
    tag: "bg-violet-100 text-violet-900 ring-violet-300",
    selected: "text-violet-900",
    check: "text-violet-700",
    active: "bg-violet-100",
    focus: "focus-visible:ring-violet-600",
    open: "border-violet-600",
  },
  indigo: {
    tag: "bg-indigo-100 text-indigo-900 ring-indigo-300",
    selected: "text-indigo-900",
    check: "text-indigo-700",
    active: "bg-indigo-100",
    focus: "focus-visible:ring-indigo-600",
    open: "border-indigo-600",
  },
  fuchsia: {
    tag: "bg-fuchsia-100 text-fuchsia-900 ring-fuchsia-300",
    selected: "text-fuchsia-900",
    check: "text-fuchsia-700",
    active: "bg-fuchsia-100",
    focus: "focus-visible:ring-fuchsia-600",
    open: "border-fuchsia-600",
  },
  pink: {
    tag: "bg-pink-100 text-pink-900 ring-pink-300",
    selected: "text-pink-900",
    check: "text-pink-700",
    active: "bg-pink-100",
    focus: "focus-visible:ring-pink-600",
    open: "border-pink-600",
  },
  rose: {
    tag: "bg-rose-100 text-rose-900 ring-rose-300",
    selected: "text-rose-900",
    check: "text-rose-700",
    active: "bg-rose-100",
    focus: "focus-visible:ring-rose-600",
    open: "border-rose-600",
  },
};
