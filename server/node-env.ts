// Imported first by server/main.ts: React, React Router and Fastify's dependencies pick their
// production or development build from process.env.NODE_ENV when they load, and `npm start`
// (or any plain `node server/main.ts`) leaves it unset. Production is the default, as in config.
process.env.NODE_ENV ||= "production";
