// Imports between feature folders that lie on a cycle of feature folders (rule 3 of
// dependency-rules.test.ts), allowed until the cycle is broken. An import on such a cycle that is
// not listed fails the test; an entry that no longer matches one fails too (delete it): the list
// only shrinks. Entries marked "pending issue 27" are the state when the rule was introduced.
//
// Regenerate from the current tree, keeping the reasons of the entries still there:
// `npx tsx tests/architecture/report.ts --write-known`.
import type { AllowedFeatureImport } from "./rules.ts";

export const allowedFeatureImports: AllowedFeatureImport[] = [];
