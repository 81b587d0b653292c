// The editor writes the events' tables (decision 047) and has none of its own: the tables the
// events' access rules judge by are declared in features/events/event-access.tables.ts, re-exported
// here for the seeds; organiser claims are features/organizers/organizers.tables.ts's.
export { eventChangeRequests, eventOrganizers } from "../events/event-access.tables.ts";
