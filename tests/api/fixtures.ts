/** The fixed world the API tests run in: a small demo catalogue around a known date. */
export const TEST_DEMO_EVENTS = 400;
export const TEST_SEED = 7;
export const TEST_REFERENCE_DATE = new Date("2026-06-01T10:00:00Z");
