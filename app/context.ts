import type { SiteSetup } from "../features/accounts/components/AdminWelcome.tsx";
import type { SessionUser } from "../features/identity/identity.contract.ts";
import type { Config } from "../platform/config.server.ts";
import type { Services } from "../server/services.server.ts";
import type { Locale } from "../shared/constants.ts";
import type { LegalSettings } from "../shared/static-pages.ts";

/** The JSON API's answer to a page's action. */
export type PageApiAnswer = { status: number; body: unknown; cookies: string[] };

/**
 * Posts a JSON body to one of the site's own API routes, in process and as the visitor (their
 * cookies, address and browser), for the actions that take forms posted without JavaScript.
 * A form posted from another site gets 403 without reaching the API.
 */
export type PageApi = (call: {
  url: string;
  body: unknown;
  locale: Locale;
  /** POST unless said (an admin's deletion is a DELETE). */
  method?: "POST" | "DELETE";
}) => Promise<PageApiAnswer>;

/** What the Fastify server hands to every loader and action (see server/react-router.server.ts). */
export type AppContext = {
  services: Services;
  config: Pick<Config, "PUBLIC_URL" | "MAP_STYLE_URL"> & {
    legal?: LegalSettings;
    /** What is left to set up on this installation (the admin's welcome). */
    setup?: SiteSetup;
  };
  /** The signed-in member, or null for a visitor (and for a member's copy of a shared page). */
  user: SessionUser | null;
  /**
   * Set when a member is served a page that is the same for everyone (a route whose handle says
   * `shared: true`): rendered without the member, who is filled in by the browser (decision 024).
   */
  memberShell?: boolean;
  /** Social sign-in providers with credentials configured, for the login page's buttons. */
  oauthProviders: readonly ("google" | "facebook" | "strava")[];
  api: PageApi;
};

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
}
