import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { idParam } from "../../shared/input.ts";
import { access, param } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import {
  claimAnswerSchema,
  claimDecisionAnswerSchema,
  claimDecisionBodySchema,
  claimsForReviewSchema,
  memberClaimSchema,
  unclaimAnswerSchema,
} from "./claims.contract.ts";
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
  const claims = () => app.services.resultClaims;

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
          "`memberSlug` is set only for lines claimed by a member with a public profile. `timeBasis` names the time " +
          "the ranking follows (gun or chip), the one the table shows and reads the pace from. Signed-in callers also " +
          "get `mine` (their own line on the course or null), `pending` (the line of their claim waiting for the " +
          "organiser), `couldBeYou` on each line whose name is theirs and `suggestions` (such lines anywhere in the " +
          "course); their answers are private.",
        params: id,
        querystring: resultsQuerySchema,
        response: { 200: courseResultsSchema, 400: apiErrorBodySchema, 404: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const auth = await request.auth();
      reply.header("Vary", "Cookie");
      reply.header("Cache-Control", auth ? PRIVATE : "public, max-age=60");
      return service().courseResults(request.params.id, request.query, auth?.user);
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
          "A line whose name is the member's (accents, case, word order and initials aside) becomes theirs " +
          "(`confirmed`); any other waits for the edition's organiser or an admin (`pending`) and counts nowhere " +
          "until approved. One line or waiting claim per member per course (409 RESULT_ALREADY_RECORDED, " +
          "RESULT_CLAIM_PENDING); a line another member has is 409 RESULT_ALREADY_CLAIMED; a line the organiser " +
          "refused you is 409 RESULT_CLAIM_REFUSED. Claiming the same line again answers the same.",
        params: id,
        response: { 200: claimAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", PRIVATE);
      return claims().claim(user, request.params.id);
    },
  );

  app.delete(
    "/api/results/:id/claim",
    {
      config: { access: access.member },
      schema: {
        tags: ["results"],
        summary: "Give back a results line you have, or withdraw your claim waiting on it",
        params: id,
        response: { 200: unclaimAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return claims().unclaim(user, request.params.id);
    },
  );

  app.get(
    "/api/results/event/:id/claims",
    {
      config: { access: access.editorOf("member", param("id", "event")) },
      schema: {
        tags: ["results"],
        summary: "Claims on an edition's results waiting for a decision (its owner, organisers, admins)",
        description:
          "Claims whose line's name is not the member's: the name on the member's profile beside the line's, " +
          "oldest first.",
        params: id,
        response: { 200: claimsForReviewSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", PRIVATE);
      return { claims: await claims().forEvent(user, request.params.id) };
    },
  );

  app.post(
    "/api/results/event/:id/claims/:claimId",
    {
      config: { access: access.editorOf("member", param("id", "event")) },
      schema: {
        tags: ["results"],
        summary: "Approve or refuse a claim on the edition's results (its owner, organisers, admins)",
        description:
          "`approve`: the line becomes the member's (409 RESULT_ALREADY_CLAIMED when another member has it, " +
          "RESULT_ALREADY_RECORDED when the member has a line on the course); `refuse`: it stays refused. A claim " +
          "decided already is 409 RESULT_CLAIM_DECIDED. The member is told by mail.",
        params: z.object({ id: idParam, claimId: idParam }),
        body: claimDecisionBodySchema,
        response: { 200: claimDecisionAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return claims().decide(user, request.params.id, request.params.claimId, request.body.decision);
    },
  );

  app.get(
    "/api/admin/result-claims",
    {
      config: { access: access.admin },
      schema: {
        tags: ["results"],
        summary: "Every claim on results waiting for a decision, oldest first (admins)",
        response: { 200: claimsForReviewSchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", PRIVATE);
      return { claims: await claims().pending() };
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
          200: memberResultsSchema.extend({
            recordable: z.array(recordableCourseSchema),
            claims: z.array(memberClaimSchema).describe("The member's claims waiting for the organiser, or refused"),
          }),
          401: apiErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", PRIVATE);
      const [results, recordable, waiting] = await Promise.all([
        service().memberResults(user.id),
        service().recordable(user.id, request.query.course),
        claims().ofMember(user.id),
      ]);
      return { results, recordable, claims: waiting };
    },
  );
};
