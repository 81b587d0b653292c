/**
 * Every page route of app/routes.ts that names a thing — in its path (an id, a slug, a type) or in
 * its query (the poster creator's ?course=, ?track=, ?activity=) — asked in both languages with
 * ids nobody has and with malformed ones, by a signed-in member (so the member pages reach their
 * loaders): 404, never 500. Against the built server, plain fetch (no browser): the loaders run in
 * the server bundle, which has its own copy of shared/api-error.ts, so an error thrown by a service
 * (the sources' ApiError) is not an `instanceof` the bundle's class — only its code tells.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { LOCALES } from "../../shared/constants.ts";
import { PAGES, type PageId, pagePath } from "../../shared/i18n/pages.ts";
import { type JourneyMember, verifiedMember } from "./members.ts";

const baseURL = inject("baseURL");

/** Ids within int4 that nothing has, and values that are no id at all (past int4 included). */
const IDS = ["99999999", "0", "-1", "1.5", "12abc", "abc", "99999999999", "%20", "%C3%A9t%C3%A9"];
const SLUGS = ["aucune-course-99999999", "99999999", "%C3%A9t%C3%A9", "a".repeat(300), "-", "%20"];

/**
 * Each page with a path parameter: the paths to ask (params already encoded) and the status a
 * stranger's value gets. A page of the table that takes parameters and is missing here fails the
 * first test, so a new route cannot be forgotten.
 */
const CASES: Partial<Record<PageId, { params: Record<string, string>[]; status: number; why?: string }>> = {
  page: { params: SLUGS.map((slug) => ({ slug })), status: 404 },
  event: { params: SLUGS.map((slug) => ({ slug })), status: 404 },
  member: { params: SLUGS.map((slug) => ({ slug })), status: 404 },
  landingSport: { params: SLUGS.map((sport) => ({ sport })), status: 404 },
  landingRegion: { params: SLUGS.map((region) => ({ region })), status: 404 },
  landingDepartment: { params: [...IDS, ...SLUGS].map((department) => ({ department })), status: 404 },
  landingSportRegion: {
    params: [
      ...SLUGS.map((region) => ({ sport: "trail", region })),
      ...SLUGS.map((sport) => ({ sport, region: "bretagne" })),
    ],
    status: 404,
  },
  activities: { params: SLUGS.map((type) => ({ type })), status: 404 },
  activity: {
    params: [...IDS.map((id) => ({ id })), { id: "99999999", action: "edit" }, { id: "abc", action: "x" }],
    status: 404,
  },
  posterEdit: { params: IDS.map((id) => ({ id })), status: 404 },
  eventEdit: { params: IDS.map((id) => ({ id })), status: 404 },
  resultsImport: { params: IDS.map((id) => ({ id })), status: 404 },
  // The journey's member is no admin: refused before the id is read (an admin gets 404).
  adminUser: { params: IDS.map((id) => ({ id })), status: 403, why: "admins only" },
  // The setup link's token is a secret checked when the form is sent; the page itself says the
  // site is set up already (the shared server has admins) whatever the token.
  setup: { params: [{ token: "nope" }, { token: "99999999" }], status: 200, why: "its token is checked on submit" },
};

/** Pages whose query names a thing: the poster creator starts from a course, a track or an activity. */
const QUERIES: { page: PageId; query: string }[] = ["course", "track", "activity"].flatMap((name) =>
  ["99999999", "99999999999", "abc", "-1", "0", ""].map((value) => ({
    page: "posterNew" as const,
    query: `${name}=${value}`,
  })),
);

/** A path with its params, each value as given (they are already percent-encoded where needed). */
function rawPath(page: PageId, locale: (typeof LOCALES)[number], params: Record<string, string>): string {
  const marked = Object.fromEntries(Object.keys(params).map((name) => [name, `\u0000${name}\u0000`]));
  let path = pagePath(page, locale, marked);
  for (const [name, value] of Object.entries(params)) path = path.replace(`%00${name}%00`, value);
  return path;
}

let member: JourneyMember;
beforeAll(async () => {
  member = await verifiedMember("Inès", { lastName: "Introuvable" });
});

async function status(path: string): Promise<number> {
  const response = await fetch(`${baseURL}${path}`, {
    headers: { accept: "text/html", cookie: member.cookie },
    redirect: "manual",
  });
  await response.arrayBuffer();
  return response.status;
}

describe("pages asked for a thing that does not exist", () => {
  it("every page route with a path parameter is in the table", () => {
    const withParams = (Object.keys(PAGES) as PageId[]).filter((page) =>
      LOCALES.some((locale) => PAGES[page][locale].includes(":")),
    );
    expect(withParams.filter((page) => !CASES[page])).toEqual([]);
  });

  for (const [page, { params, status: expected, why }] of Object.entries(CASES) as [
    PageId,
    NonNullable<(typeof CASES)[PageId]>,
  ][]) {
    it(`${page}: ${expected}${why ? ` (${why})` : ""} for unknown and malformed values, in both languages`, async () => {
      const answers: string[] = [];
      for (const locale of LOCALES)
        for (const values of params) {
          const path = rawPath(page, locale, values);
          answers.push(`${path.slice(0, 80)} → ${await status(path)}`);
        }
      expect(answers.filter((answer) => !answer.endsWith(`→ ${expected}`))).toEqual([]);
    });
  }

  it("the poster creator: 404 for an unknown or malformed course, track or activity, in both languages", async () => {
    const answers: string[] = [];
    for (const locale of LOCALES)
      for (const { page, query } of QUERIES) {
        const path = `${pagePath(page, locale)}?${query}`;
        answers.push(`${path} → ${await status(path)}`);
      }
    expect(answers.filter((answer) => !answer.endsWith("→ 404"))).toEqual([]);
  });
});
