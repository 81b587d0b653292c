/**
 * The HTML limits of a form's inputs (required, maxLength, minLength, min, max), read from the
 * zod contract the API checks with, so an input never lets through more than the API accepts.
 * Conform's own getZodConstraint reads zod's `_zod.bag`, which zod 4.6 no longer fills: this
 * reads the checks themselves.
 */
import type { z } from "zod";

export type InputConstraint = {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
};

type Def = {
  type: string;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  out?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  values?: unknown[];
  checks?: {
    _zod: {
      def: { check: string; minimum?: number; maximum?: number; length?: number; value?: unknown; inclusive?: boolean };
    };
  }[];
};

const def = (schema: z.core.$ZodType) => schema._zod.def as unknown as Def;

/** Limits of one leaf; `optional` once an optional, nullable or defaulted wrapper was crossed. */
function leaf(schema: z.core.$ZodType, optional: boolean): InputConstraint | null {
  const d = def(schema);
  switch (d.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
      return d.innerType ? leaf(d.innerType, true) : null;
    case "pipe":
      // A transform's input is what the form holds: its checks are on the pipe's input side.
      return d.in ? leaf(d.in, optional) : null;
    case "readonly":
    case "catch":
      return d.innerType ? leaf(d.innerType, optional) : null;
    case "string": {
      const constraint: InputConstraint = {};
      for (const check of d.checks ?? []) {
        const c = check._zod.def;
        if (c.check === "min_length" && c.minimum !== undefined) constraint.minLength = c.minimum;
        if (c.check === "max_length" && c.maximum !== undefined) constraint.maxLength = c.maximum;
        if (c.check === "length_equals" && c.length !== undefined)
          constraint.minLength = constraint.maxLength = c.length;
      }
      // Required only when the empty text is refused; a single character minimum is "not empty".
      if (!optional && (constraint.minLength ?? 0) >= 1) constraint.required = true;
      if (constraint.minLength === 1) delete constraint.minLength;
      return constraint;
    }
    case "number": {
      const constraint: InputConstraint = {};
      for (const check of d.checks ?? []) {
        const c = check._zod.def;
        if (typeof c.value !== "number") continue;
        if (c.check === "greater_than" && c.inclusive) constraint.min = c.value;
        if (c.check === "less_than" && c.inclusive) constraint.max = c.value;
      }
      if (!optional) constraint.required = true;
      return constraint;
    }
    case "literal":
      // A box that must be ticked (the terms).
      return !optional && d.values?.length === 1 && d.values[0] === true ? { required: true } : {};
    case "enum":
      return optional ? {} : { required: true };
    default:
      return null;
  }
}

/** The limits of each field of an object contract, by Conform field name. */
export function inputConstraints(schema: z.core.$ZodType): Record<string, InputConstraint> {
  let object = schema;
  // Refinements keep the object; wrappers and pipes are looked through.
  while (def(object).type !== "object") {
    const d = def(object);
    const inner = d.innerType ?? d.in;
    if (!inner) return {};
    object = inner;
  }
  const result: Record<string, InputConstraint> = {};
  for (const [name, field] of Object.entries(def(object).shape ?? {})) {
    const constraint = leaf(field, false);
    if (constraint && Object.keys(constraint).length) result[name] = constraint;
  }
  return result;
}
