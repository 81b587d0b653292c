// Ad-hoc: load one URL for a few seconds (used while profiling a server with --cpu-prof).
import { runLoad } from "./load.ts";

const [url, seconds = "5", cookie] = process.argv.slice(2);
const result = await runLoad({
  url,
  concurrency: 10,
  durationMs: Number(seconds) * 1000,
  warmupMs: 1000,
  headers: { "accept-encoding": "br, gzip", ...(cookie ? { cookie } : {}) },
});
console.log(
  `${url}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyMs.median.toFixed(1)} ms, p99 ${result.latencyMs.p99.toFixed(1)} ms, errors ${result.errors}`,
);
process.exit(0);
