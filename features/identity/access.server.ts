/**
 * Who may call each route, declared on the route itself (`config: { access: … }`) and enforced
 * there by one hook: the declaration is the check, so the two cannot drift apart.
 *
 * - Every route must declare a rule: registering one without fails at start-up (and so in every
 *   test). Routes of other people's plugins (API docs, uploaded files) get theirs from the scope
 *   they are registered in (`withAccess`).
 * - The rule is checked in preValidation, after routing and body parsing but before the body is
 *   validated: a caller who may not use a route is told so (401, 403, or 409 when only the e-mail
 *   check is missing) whatever they sent, and nothing of the handler runs.
 * - The services keep their own checks (object-level details such as admin-only status changes):
 *   the rule is the least a caller needs, never more than the route allows.
 *
 * `app.routeAccess` lists every route with its rule: the authorisation matrix test walks it.
 */
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginCallback,
  FastifyPluginOptions,
  FastifyRequest,
  RouteOptions,
} from "fastify";
import type { Executor } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { idParam, numeric, rowId } from "../../shared/input.ts";
import { requireUser, requireVerifiedEmail } from "./auth.server.ts";
import type { AccessTargetKind, RequireTargetEditor } from "./target-editors-port.ts";

/**
 * anyone: no session needed. member: signed in. verified: signed in with a verified e-mail
 * (409 EMAIL_VERIFICATION_REQUIRED otherwise, as the spec wants for a missing step). admin.
 */
export type Who = "anyone" | "member" | "verified" | "admin";

/**
 * Where a route names the object the caller must edit, and what it is. `multipart` fields are
 * read by the handler with the file: the service checks them (the matrix test still sends them).
 */
export type AccessTarget = { in: "params" | "body" | "multipart"; key: string; is: AccessTargetKind };

export type AccessRule = {
  who: Who;
  /** The caller must edit every object named here (owner, organiser of its event, admin). */
  editorOf?: readonly AccessTarget[];
  /** The member id at params[key] must be the caller's own. */
  self?: string;
  /**
   * What else the caller must prove that no session shows (the setup link's token, the local
   * control token): checked by the handler; without it, whoever calls is refused.
   */
  secret?: string;
};

declare module "fastify" {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
  interface FastifyInstance {
    /** Every route with its access rule, in registration order. */
    routeAccess: readonly RouteAccess[];
  }
}

export type RouteAccess = { method: string; url: string; access: AccessRule; schema?: RouteOptions["schema"] };

export const param = (key: string, is: AccessTargetKind): AccessTarget => ({ in: "params", key, is });
export const bodyField = (key: string, is: AccessTargetKind): AccessTarget => ({ in: "body", key, is });
export const formField = (key: string, is: AccessTargetKind): AccessTarget => ({ in: "multipart", key, is });

/** The rules routes declare, as `config: { access: access.member }`. */
export const access = {
  anyone: { who: "anyone" },
  member: { who: "member" },
  verified: { who: "verified" },
  admin: { who: "admin" },
  /** Signed in, and `params[key]` is the caller's own member id. */
  self: (key: string): AccessRule => ({ who: "member", self: key }),
  /** Open to anyone who holds a secret the handler checks (`what` names it). */
  secret: (what: string): AccessRule => ({ who: "anyone", secret: what }),
  /** Signed in (`who`), and an editor of every target. */
  editorOf: (who: "member" | "verified", ...targets: AccessTarget[]): AccessRule => ({ who, editorOf: targets }),
} as const satisfies Record<string, AccessRule | ((...args: never[]) => AccessRule)>;

const SCOPE_ACCESS = Symbol("dossard.scopeAccess");
type ScopeWithAccess = { [SCOPE_ACCESS]?: AccessRule };

/**
 * A plugin whose routes we do not define ourselves, registered in a scope of its own where each
 * route gets this rule: `app.register(withAccess(access.anyone, plugin, options))`. Its options go
 * to the plugin, not to the scope (a `prefix` there would otherwise apply twice).
 */
export function withAccess<Options extends FastifyPluginOptions>(
  rule: AccessRule,
  plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options>,
  options: Options,
): FastifyPluginAsync {
  return async (scope) => {
    (scope as ScopeWithAccess)[SCOPE_ACCESS] = rule;
    await scope.register(plugin, options);
  };
}

/**
 * The id at the place named, read as the routes' schemas read ids (shared/input.ts: a path id is
 * digits only, a body id a number or a numeric string; a positive int4), else null: what no schema
 * would accept is left for validation to refuse, and never reaches a query.
 */
function idAt(request: FastifyRequest, where: "params" | "body", key: string): number | null {
  const holder = where === "params" ? request.params : request.body;
  if (!holder || typeof holder !== "object") return null;
  const raw = (holder as Record<string, unknown>)[key];
  const parsed = (where === "params" ? idParam : numeric.pipe(rowId)).safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Throws LOGIN_REQUIRED, FORBIDDEN or EMAIL_VERIFICATION_REQUIRED when the caller may not. */
export async function checkAccess(
  db: Executor,
  request: FastifyRequest,
  rule: AccessRule,
  requireTargetEditor: RequireTargetEditor,
): Promise<void> {
  if (rule.who === "anyone") return;
  const { user } = await requireUser(request);
  if (rule.who === "admin" && user.role !== "admin") throw new ApiError("FORBIDDEN");
  if (rule.who === "verified") requireVerifiedEmail(user);
  if (rule.self !== undefined) {
    const id = idAt(request, "params", rule.self);
    if (id !== null && id !== user.id) throw new ApiError("FORBIDDEN");
  }
  for (const target of rule.editorOf ?? []) {
    if (target.in === "multipart") continue;
    const id = idAt(request, target.in, target.key);
    if (id !== null) await requireTargetEditor(db, user, target.is, id);
  }
}

/**
 * Call before any route is registered: every later route must carry (or inherit) a rule.
 * `requireTargetEditor` judges `editorOf` rules (features/events, through target-editors-port.ts).
 */
export function installAccessRules(
  app: FastifyInstance,
  options: { db: Executor; requireTargetEditor: RequireTargetEditor },
) {
  const table: RouteAccess[] = [];
  app.decorate("routeAccess", table);
  app.addHook("onRoute", function (this: FastifyInstance & ScopeWithAccess, route) {
    const rule = route.config?.access ?? this[SCOPE_ACCESS];
    const methods = [route.method].flat();
    if (!rule) throw new Error(`${methods.join(",")} ${route.url} declares no access rule (config.access)`);
    route.config = { ...route.config, access: rule };
    for (const method of methods) table.push({ method, url: route.url, access: rule, schema: route.schema });
  });
  app.addHook("preValidation", async (request) => {
    // Only the not-found handler has no rule: every route was given one above.
    const rule = request.routeOptions.config.access;
    if (rule) await checkAccess(options.db, request, rule, options.requireTargetEditor);
  });
}
