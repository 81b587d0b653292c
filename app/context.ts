import type { SessionUser } from "../features/accounts/accounts.contract.ts";
import type { Config } from "../server/config.server.ts";
import type { Services } from "../server/services.server.ts";

/** What the Fastify server hands to every loader and action (see server/react-router.server.ts). */
export type AppContext = {
  services: Services;
  config: Pick<Config, "PUBLIC_URL" | "MAP_STYLE_URL">;
  /** The signed-in member, or null for a visitor. */
  user: SessionUser | null;
  /** Social sign-in providers with credentials configured, for the login page's buttons. */
  oauthProviders: readonly ("google" | "facebook" | "strava")[];
};

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
}
