import type { Ref } from "react";
import { INPUT_CLASS } from "../../../shared/ui/fields.tsx";
import { parisToday } from "../../../shared/zoned-time.ts";
import { ACTIVITY_FIRST_DAY } from "../activities.contract.ts";

/** The day of an activity whose file has no time: from ACTIVITY_FIRST_DAY to today, field `date`. */
export function DayInput(props: { id: string; invalid: boolean; describedBy?: string; ref?: Ref<HTMLInputElement> }) {
  return (
    <input
      ref={props.ref}
      id={props.id}
      type="date"
      name="date"
      required
      min={ACTIVITY_FIRST_DAY}
      max={parisToday()}
      aria-invalid={props.invalid ? "true" : undefined}
      aria-describedby={props.describedBy}
      className={INPUT_CLASS}
    />
  );
}
