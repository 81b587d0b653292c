import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { idParam } from "../../shared/input.ts";
import { access, param } from "../accounts/access.server.ts";
import { requireUser } from "../accounts/auth.server.ts";
import {
  courseResultsSchema,
  eventResultsSummarySchema,
  manualResultBodySchema,
  manualResultEditSchema,
  memberResultSchema,
  memberResultsSchema,
  recordableCourseSchema,
  resultsQuerySchema,
} from "./results.contract.ts";

const errors = {
  400: apiErrorBodySchema,
  401: apiErrorBodySchema,
  403: apiErrorBodySchema,
  404: apiErrorBodySchema,
  409: apiErrorBodySchema,
};
const id = z.object({ id: idParam });
const PRIVATE = "private, no-store";

/**
 * Reading and deleting results, members' own results (spec: /api/results/{id}, GET and DELETE).
 * The import routes (/api/results/parse, /api/results/import) live in import/.
 */
export const resultsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.results;

  app.get(
    "/api/results/:id",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["results"],
        summary: "One course's results, one page at a time: general, men, women or one category; search by name or bib",
        description:
          "`id` is a **course** id. `type` general (finishers by rank, then DNF, DNS, DSQ), men, women or " +
          "category (with `category`, one of the answer's `categories`). `q` matches any part of the name " +
          "(accents and case ignored) or a bib exactly. `page` from 1, `pageSize` up to 200 (50 by default). " +
          "`memberSlug` is set only for lines claimed by a member with a public profile. Signed-in callers also " +
          "get `mine` (their own line on the course or null); their answers are private.",
        params: id,
        querystring: resultsQuerySchema,
        response: { 200: courseResultsSchema, 400: apiErrorBodySchema, 404: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const auth = await request.auth();
      reply.header("Vary", "Cookie");
      reply.header("Cache-Control", auth ? PRIVATE : "public, max-age=60");
      return service().courseResults(request.params.id, request.query, auth?.user.id);
    },
  );

  app.get(
    "/api/results/event/:id",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["results"],
        summary: "An edition's courses with their result counts (entries, finishers)",
        params: id,
        response: { 200: eventResultsSummarySchema, 400: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "public, max-age=60");
      return service().eventSummary(request.params.id);
    },
  );

  app.delete(
    "/api/results/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["results"],
        summary: "Delete one results line",
        description:
          "`id` is a **result line** id. Admins and the edition's owner or organisers may delete any line; " +
          "a member only their own hand-recorded result (403 otherwise). The member who had the line loses " +
          "the badges it earned.",
        params: id,
        response: { 200: z.object({ deleted: z.number().int() }), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().deleteLine(user, request.params.id);
    },
  );

  app.delete(
    "/api/results/course/:id",
    {
      config: { access: access.editorOf("member", param("id", "course")) },
      schema: {
        tags: ["results"],
        summary: "Delete every imported result of a course (its editors: owner, organisers, admins)",
        description:
          "Before importing a corrected file, or to withdraw a wrong one. Results members recorded by hand " +
          "stay; members who had claimed a line lose its badges. Answers how many lines went and how many " +
          "members were affected.",
        params: id,
        response: { 200: z.object({ deleted: z.number().int(), members: z.number().int() }), ...errors },
      },
    },
    async (request) => service().deleteCourse(request.params.id),
  );

  app.post(
    "/api/results/:id/claim",
    {
      config: { access: access.verified },
      schema: {
        tags: ["results"],
        summary: "“That's me”: claim a results line as your own",
        description:
          "One result per member per course (409 RESULT_ALREADY_RECORDED); a line another member claimed is " +
          "409 RESULT_ALREADY_CLAIMED. Claiming your own line again changes nothing.",
        params: id,
        response: { 200: z.object({ id: z.number().int(), courseId: z.number().int() }), ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", PRIVATE);
      return service().claim(user, request.params.id);
    },
  );

  app.delete(
    "/api/results/:id/claim",
    {
      config: { access: access.member },
      schema: {
        tags: ["results"],
        summary: "Give back a results line you claimed",
        params: id,
        response: { 200: z.object({ ok: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().unclaim(user, request.params.id);
    },
  );

  app.post(
    "/api/results/manual",
    {
      config: { access: access.verified },
      schema: {
        tags: ["results"],
        summary: "Record your own result on a past course that has no imported results",
        description:
          "`timeMs` in milliseconds (required when finished), `rank` optional. A future edition is 409 " +
          "RESULT_EVENT_NOT_HELD; a course with imported results is 409 COURSE_HAS_RESULTS (claim your line).",
        body: manualResultBodySchema,
        response: { 201: memberResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const auth = await requireUser(request);
      const result = await service().recordManual(auth.user, request.body);
      return reply.code(201).header("Cache-Control", PRIVATE).send(result);
    },
  );

  app.put(
    "/api/results/manual/:id",
    {
      config: { access: access.verified },
      schema: {
        tags: ["results"],
        summary: "Correct your own hand-recorded result",
        params: id,
        body: manualResultEditSchema,
        response: { 200: memberResultSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().editManual(user, request.params.id, request.body);
    },
  );

  app.get(
    "/api/results/mine",
    {
      config: { access: access.member },
      schema: {
        tags: ["results"],
        summary: "The signed-in member's results, and the past courses of their planning still without one",
        querystring: z.object({ course: idParam.optional() }),
        response: {
          200: memberResultsSchema.extend({ recordable: z.array(recordableCourseSchema) }),
          401: apiErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", PRIVATE);
      const [results, recordable] = await Promise.all([
        service().memberResults(user.id),
        service().recordable(user.id, request.query.course),
      ]);
      return { results, recordable };
    },
  );
};
