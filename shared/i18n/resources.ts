/**
 * Every translation bundle of every language, imported statically. The server, tests and scripts
 * use this module; the browser build gets resources.client.ts in its place (vite.config.ts), with
 * only the page's language, which the server writes into the page (page-bundle.ts). Adding a
 * namespace is done here only.
 */
import enAccount from "../../locales/en/account.json";
import enActivities from "../../locales/en/activities.json";
import enAdmin from "../../locales/en/admin.json";
import enBadges from "../../locales/en/badges.json";
import enCommon from "../../locales/en/common.json";
import enCommunity from "../../locales/en/community.json";
import enEditor from "../../locales/en/editor.json";
import enEngagement from "../../locales/en/engagement.json";
import enEvent from "../../locales/en/event.json";
import enEvents from "../../locales/en/events.json";
import enLanding from "../../locales/en/landing.json";
import enOrders from "../../locales/en/orders.json";
import enOrganizer from "../../locales/en/organizer.json";
import enPages from "../../locales/en/pages.json";
import enPosters from "../../locales/en/posters.json";
import enResults from "../../locales/en/results.json";
import enResultsImport from "../../locales/en/results-import.json";
import enSearch from "../../locales/en/search.json";
import enSports from "../../locales/en/sports.json";
import enUi from "../../locales/en/ui.json";
import frAccount from "../../locales/fr/account.json";
import frActivities from "../../locales/fr/activities.json";
import frAdmin from "../../locales/fr/admin.json";
import frBadges from "../../locales/fr/badges.json";
import frCommon from "../../locales/fr/common.json";
import frCommunity from "../../locales/fr/community.json";
import frEditor from "../../locales/fr/editor.json";
import frEngagement from "../../locales/fr/engagement.json";
import frEvent from "../../locales/fr/event.json";
import frEvents from "../../locales/fr/events.json";
import frLanding from "../../locales/fr/landing.json";
import frOrders from "../../locales/fr/orders.json";
import frOrganizer from "../../locales/fr/organizer.json";
import frPages from "../../locales/fr/pages.json";
import frPosters from "../../locales/fr/posters.json";
import frResults from "../../locales/fr/results.json";
import frResultsImport from "../../locales/fr/results-import.json";
import frSearch from "../../locales/fr/search.json";
import frSports from "../../locales/fr/sports.json";
import frUi from "../../locales/fr/ui.json";

export const resources = {
  fr: {
    common: frCommon,
    ui: frUi,
    events: frEvents,
    sports: frSports,
    pages: frPages,
    search: frSearch,
    event: frEvent,
    landing: frLanding,
    account: frAccount,
    admin: frAdmin,
    editor: frEditor,
    organizer: frOrganizer,
    engagement: frEngagement,
    community: frCommunity,
    "results-import": frResultsImport,
    results: frResults,
    badges: frBadges,
    activities: frActivities,
    posters: frPosters,
    orders: frOrders,
  },
  en: {
    common: enCommon,
    ui: enUi,
    events: enEvents,
    sports: enSports,
    pages: enPages,
    search: enSearch,
    event: enEvent,
    landing: enLanding,
    account: enAccount,
    admin: enAdmin,
    editor: enEditor,
    organizer: enOrganizer,
    engagement: enEngagement,
    community: enCommunity,
    "results-import": enResultsImport,
    results: enResults,
    badges: enBadges,
    activities: enActivities,
    posters: enPosters,
    orders: enOrders,
  },
} as const;

export const NAMESPACES = Object.keys(resources.fr) as (keyof typeof resources.fr)[];
export type Namespace = (typeof NAMESPACES)[number];
