import { Check, CircleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { cx } from "../../../shared/ui/cx.ts";
import { STEPS, type Step } from "./form-model.ts";

type Props = {
  current: Step;
  /** Steps already shown once: they can be reached again by a click. */
  visited: ReadonlySet<Step>;
  /** Steps with errors to correct. */
  invalid: ReadonlySet<Step>;
  onSelect: (step: Step) => void;
};

/**
 * The four steps as a numbered list: the current one carries aria-current="step", visited ones
 * are buttons, the others are shown but cannot be chosen yet. Numbers, ticks and an alert icon
 * say the state, never colour alone.
 */
export function StepIndicator({ current, visited, invalid, onSelect }: Props) {
  const { t } = useTranslation("editor");
  return (
    <nav aria-label={t("steps.label")}>
      <ol className="grid grid-cols-4 gap-0.5 sm:gap-2">
        {STEPS.map((step, index) => {
          const isCurrent = step === current;
          const reachable = visited.has(step) && !isCurrent;
          const hasErrors = invalid.has(step);
          const done = visited.has(step) && !isCurrent && !hasErrors;
          const state = isCurrent
            ? t("steps.stateCurrent")
            : hasErrors
              ? t("steps.stateErrors")
              : visited.has(step)
                ? t("steps.stateVisited")
                : t("steps.stateLocked");
          const body = (
            <>
              <span
                aria-hidden="true"
                className={cx(
                  "flex h-8 w-8 shrink-0 items-center justify-center rounded-full border-2 font-bold text-sm",
                  isCurrent
                    ? "border-brand-700 bg-brand-700 text-white"
                    : hasErrors
                      ? "border-red-700 bg-red-50 text-red-800"
                      : done
                        ? "border-brand-700 bg-white text-brand-700"
                        : "border-slate-300 bg-white text-ink-500",
                )}
              >
                {hasErrors && !isCurrent ? (
                  <CircleAlert className="h-4 w-4" />
                ) : done ? (
                  <Check className="h-4 w-4" />
                ) : (
                  index + 1
                )}
              </span>
              <span
                className={cx(
                  "text-center text-[11px] leading-tight tracking-tight sm:text-sm sm:tracking-normal",
                  isCurrent ? "font-bold text-ink-900 underline decoration-2 underline-offset-4" : "text-ink-700",
                )}
              >
                {t(`steps.${step}`)}
              </span>
              <span className="sr-only">
                {t("steps.position", { n: index + 1, total: STEPS.length })}, {state}
              </span>
            </>
          );
          const boxClass =
            "flex w-full flex-col items-center gap-1 rounded-lg px-0 py-2 sm:flex-row sm:justify-center sm:gap-2 sm:px-1";
          return (
            <li key={step} aria-current={isCurrent ? "step" : undefined} data-step={step}>
              {reachable ? (
                <button
                  type="button"
                  onClick={() => onSelect(step)}
                  className={cx(
                    boxClass,
                    "hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700",
                  )}
                >
                  {body}
                </button>
              ) : (
                <div className={cx(boxClass, !visited.has(step) && "opacity-80")}>{body}</div>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
