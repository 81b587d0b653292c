import { Star } from "lucide-react";
import { cx } from "./cx.ts";

/**
 * Five stars filled to `value` (halves and quarters shown as a partly filled star). Decorative:
 * the caller writes the value as text beside them (never colour alone).
 */
export function Stars({ value, className = "h-5 w-5" }: { value: number; className?: string }) {
  return (
    <span className="inline-flex items-center gap-0.5" aria-hidden="true">
      {[1, 2, 3, 4, 5].map((n) => {
        const fill = Math.max(0, Math.min(1, value - (n - 1)));
        return (
          <span key={n} className={cx("relative inline-block", className)}>
            <Star className={cx("absolute inset-0 text-slate-300", className)} strokeWidth={1.5} />
            {fill > 0 && (
              <span className="absolute inset-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
                <Star className={cx("fill-amber-400 text-amber-500", className)} strokeWidth={1.5} />
              </span>
            )}
          </span>
        );
      })}
    </span>
  );
}
