import type { Db } from "../db/client.server.ts";
import { accountsService, type MailSender } from "../features/accounts/accounts.service.server.ts";
import { editorService } from "../features/events/editor.service.server.ts";
import { eventDetailService } from "../features/events/event-detail.service.server.ts";
import { eventsService } from "../features/events/events.service.server.ts";
import { organizerService } from "../features/events/organizer.service.server.ts";
import { searchService } from "../features/events/search.service.server.ts";
import { geoService } from "../features/geo/geo.service.server.ts";
import { seoService } from "../features/seo/seo.service.server.ts";
import { sportsService } from "../features/sports/sports.service.server.ts";

/** Every domain service, bound to one database. Loaders and API routes both call these. */
export function createServices(db: Db, clock: () => Date, deps: { mail: MailSender; publicOrigin: string }) {
  return {
    accounts: accountsService(db, clock, deps),
    editor: editorService(db, clock),
    events: eventsService(db, clock),
    eventDetails: eventDetailService(db, clock),
    organizers: organizerService(db, clock, deps),
    search: searchService(db, clock),
    geo: geoService(db),
    sports: sportsService(db),
    seo: seoService(db, clock),
  };
}
export type Services = ReturnType<typeof createServices>;
