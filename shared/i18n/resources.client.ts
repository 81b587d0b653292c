/**
 * resources.ts as the browser build sees it (vite.config.ts swaps the two for the client only):
 * the one language the server wrote into the page (page-bundle.ts), under the same exports.
 */

import { readPageBundle } from "./page-bundle.ts";
import type * as AllLanguages from "./resources.ts";

const page = readPageBundle();

/** Only `resources[<the page's language>]` is present. */
export const resources = { [page.locale]: page.resources } as unknown as typeof AllLanguages.resources;

export const NAMESPACES = Object.keys(page.resources) as AllLanguages.Namespace[];
export type Namespace = AllLanguages.Namespace;
