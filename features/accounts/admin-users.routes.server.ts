import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { fileResponse } from "../../platform/http/route-docs.server.ts";
import { idParam } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import { requestMeta, requireRole } from "../identity/auth.server.ts";
import { okSchema } from "./accounts.contract.ts";
import {
  ADMIN_USER_FORMATS,
  adminUserDetailSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  deletionResponseSchema,
  roleBodySchema,
} from "./admin-users.contract.ts";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const params = z.object({ id: idParam });

/**
 * The admin's Users screen (issue 28): the list and its exports, one member's detail and GDPR
 * export, a change of role, disabling and enabling, and the GDPR deletion. Admins only; every
 * answer is private (accountsRoutes' Cache-Control). Registered by accountsRoutes.
 */
export const adminUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = () => app.services.accounts;
  const admin = async (request: Parameters<typeof requireRole>[0]) => (await requireRole(request, "admin")).user;

  app.get(
    "/api/admin/users/:format?",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary:
          "Members (admin): searched, filtered and sorted, 50 a page; json (default), or the whole list as csv or xlsx",
        description:
          "`q` searches names, pseudos and e-mail addresses; `role`, `verified` (yes/no), `status` " +
          "(active, disabled, deleted; without it active and disabled), `sport`, `never=1` (never signed in), " +
          "`loginAfter` and `loginBefore` (days, Paris time) filter; `sort` and `dir` order. The csv and xlsx " +
          "exports carry every member the filters find (pages ignored); a text cell starting with = + - @ is " +
          "neutralised with a leading apostrophe.",
        params: z.object({ format: z.enum(ADMIN_USER_FORMATS).optional() }),
        querystring: adminUsersQuerySchema,
        response: {
          200: z.union([
            adminUsersResponseSchema,
            fileResponse("text/csv", "The list as CSV (format csv)"),
            fileResponse(XLSX_TYPE, "The list as an Excel workbook (format xlsx)"),
          ]),
        },
      },
    },
    async (request, reply) => {
      await admin(request);
      const format = request.params.format ?? "json";
      if (format === "json") return accounts().listUsers(request.query);
      const file = await accounts().exportUsers(request.query, format);
      return reply
        .header("Content-Disposition", `attachment; filename="dossard-membres.${format}"`)
        .type(format === "csv" ? "text/csv; charset=utf-8" : XLSX_TYPE)
        .serializer((payload: unknown) => payload as string)
        .send(file);
    },
  );

  app.get(
    "/api/admin/user/:id",
    {
      config: { access: access.admin, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["admin"],
        summary: "One member (admin): the account, open sessions, events, result lines, orders",
        params,
        response: { 200: adminUserDetailSchema },
      },
    },
    async (request) => {
      await admin(request);
      return accounts().userDetail(request.params.id);
    },
  );

  app.get(
    "/api/admin/user/:id/export",
    {
      config: { access: access.admin, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["admin"],
        summary: "One member's GDPR export (admin): the JSON file the member gets from their settings",
        params,
        response: {
          200: fileResponse("application/json", "Everything Dossard keeps about the member, secrets excluded"),
        },
      },
    },
    async (request, reply) => {
      await admin(request);
      const { slug, data } = await accounts().memberExport(request.params.id);
      return reply
        .header("Content-Disposition", `attachment; filename="dossard-${slug}.json"`)
        .type("application/json; charset=utf-8")
        .serializer((payload: unknown) => payload as string)
        .send(JSON.stringify(data, null, 2));
    },
  );

  app.post(
    "/api/admin/user/:id/role",
    {
      config: { access: access.admin, openapi: { errors: ["ITEM_NOT_FOUND", "ADMIN_OWN_ACCOUNT", "LAST_ADMIN"] } },
      schema: {
        tags: ["admin"],
        summary: "Give a member a role (admin): member, organiser or admin",
        description: "An admin keeps their own admin role, and the last active admin keeps theirs (409).",
        params,
        body: roleBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      const user = await admin(request);
      await accounts().changeRole(user, request.params.id, request.body.role, requestMeta(request));
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/user/:id/disable",
    {
      config: { access: access.admin, openapi: { errors: ["ITEM_NOT_FOUND", "ADMIN_OWN_ACCOUNT", "LAST_ADMIN"] } },
      schema: {
        tags: ["admin"],
        summary: "Disable a member's account (admin): signed out everywhere, planning feed and social links ended",
        params,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      const user = await admin(request);
      await accounts().disableMember(user, request.params.id, requestMeta(request));
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/user/:id/enable",
    {
      config: { access: access.admin, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["admin"],
        summary: "Enable a disabled account again (admin)",
        params,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      const user = await admin(request);
      await accounts().enableMember(user, request.params.id, requestMeta(request));
      return { ok: true as const };
    },
  );

  app.delete(
    "/api/admin/user/:id",
    {
      config: { access: access.admin, openapi: { errors: ["ITEM_NOT_FOUND", "ADMIN_OWN_ACCOUNT", "LAST_ADMIN"] } },
      schema: {
        tags: ["admin"],
        summary: "Delete a member (admin, GDPR): personal data erased, result lines kept anonymous, orders kept",
        description:
          "In one transaction (decision 048): the account's personal fields are cleared and it is marked deleted " +
          "(the row stays for the orders); sessions, codes, social links, favourites, planning, alerts, ratings, " +
          "badges, claims, posters, credits, organiser rights and mail go; result lines, comments, events listed " +
          "and tracks sent stay without the member. Then the profile photo and the posters' files are removed.",
        params,
        response: { 200: deletionResponseSchema },
      },
    },
    async (request) => {
      const user = await admin(request);
      const removed = await accounts().deleteMember(user, request.params.id, requestMeta(request));
      for (const file of removed.files) await app.storage.delete(file).catch(() => undefined);
      return { ok: true as const, keptResults: removed.keptResults, keptOrders: removed.keptOrders };
    },
  );
};
