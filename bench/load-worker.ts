/** Worker thread entry of bench/load.ts: runs one load and posts its result back. */
import { parentPort, workerData } from "node:worker_threads";
import { generateLoad, type LoadOptions } from "./load.ts";

if (!parentPort) throw new Error("bench/load-worker.ts is meant to run in a worker thread");
const port = parentPort;

generateLoad(workerData as LoadOptions).then(
  (result) => port.postMessage({ result }),
  (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
