import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * axe-core's serious and critical findings on the page (or only inside `include` selectors), one
 * line per rule with the nodes it found. axe is asked for its violations only: the passes and
 * "incomplete" lists it otherwise builds for every node are what makes it slow on long pages
 * (the search results, a calendar), and no journey reads them.
 */
export async function seriousViolations(page: Page, include: readonly string[] = []): Promise<string[]> {
  let builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  for (const selector of include) builder = builder.include(selector);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
