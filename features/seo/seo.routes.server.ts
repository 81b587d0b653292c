import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { fileResponse } from "../../platform/http/route-docs.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { LOCALES, type Locale } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { text } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import { sitePages } from "./site-pages.ts";
import {
  type LocalizedPage,
  MAX_URLS_PER_SITEMAP,
  parseSitemapPart,
  partRange,
  renderRobots,
  renderSitemapIndex,
  renderUrlSet,
  sitemapParts,
} from "./sitemap.ts";

export type SeoRoutesOptions = {
  /** URLs per sitemap file (the protocol's 50,000 by default; tests use a small number). */
  urlsPerFile?: number;
};

const XML = "application/xml; charset=utf-8";
const CACHE = "public, max-age=3600";

/** /sitemap.xml (an index), its parts under /sitemaps/, and /robots.txt (issue 3). */
export const seoRoutes: FastifyPluginAsyncZod<SeoRoutesOptions> = async (app, options) => {
  const urlsPerFile = Math.min(Math.max(2, options.urlsPerFile ?? MAX_URLS_PER_SITEMAP), MAX_URLS_PER_SITEMAP);
  const origin = () => app.config.PUBLIC_URL;

  app.get(
    "/robots.txt",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["seo"],
        summary: "Crawling rules and the sitemap's address",
        response: { 200: fileResponse("text/plain", "robots.txt") },
      },
    },
    async (_request, reply) => {
      reply.type("text/plain; charset=utf-8").header("Cache-Control", CACHE);
      return renderRobots(origin());
    },
  );

  app.get(
    "/sitemap.xml",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["seo"],
        summary: "Sitemap index: the pages file(s), then the events files",
        response: { 200: fileResponse("application/xml", "A sitemap index (sitemaps.org)") },
      },
    },
    async (_request, reply) => {
      const [counts, events, lastModified] = await Promise.all([
        app.services.seo.landingCounts(),
        app.services.seo.activeEventCount(),
        app.services.seo.lastModified(),
      ]);
      const parts = sitemapParts(sitePages(counts).length, events, urlsPerFile);
      reply.type(XML).header("Cache-Control", CACHE);
      return renderSitemapIndex(origin(), parts, lastModified?.toISOString());
    },
  );

  app.get(
    "/sitemaps/:file",
    {
      config: { access: access.anyone, openapi: { errors: ["NOT_FOUND"] } },
      schema: {
        tags: ["seo"],
        summary: "One sitemap file: pages-N.xml (home, static and landing pages) or events-N.xml",
        params: z.object({ file: text().max(40) }),
        response: { 200: fileResponse("application/xml", "A sitemap file (sitemaps.org) with hreflang alternates") },
      },
    },
    async (request, reply) => {
      const part = parseSitemapPart(request.params.file);
      if (!part) throw new ApiError("NOT_FOUND");
      const { offset, limit } = partRange(part.index, urlsPerFile);
      let pages: LocalizedPage[];
      if (part.kind === "pages") {
        const all = sitePages(await app.services.seo.landingCounts());
        pages = all.slice(offset, offset + limit);
        if (pages.length === 0 && part.index > 1) throw new ApiError("NOT_FOUND");
      } else {
        const rows = await app.services.seo.activeEvents(offset, limit);
        if (rows.length === 0) throw new ApiError("NOT_FOUND");
        pages = rows.map((row) => ({
          paths: Object.fromEntries(
            LOCALES.map((locale) => [locale, pagePath("event", locale, { slug: row.slug })]),
          ) as Record<Locale, string>,
          lastmod: new Date(row.updatedAt).toISOString(),
        }));
      }
      reply.type(XML).header("Cache-Control", CACHE);
      return renderUrlSet(origin(), pages);
    },
  );
};
