// Entry of the worker threads of worker-pool.server.ts (decision 018).
//
// Plain JavaScript, so that Node starts it without a loader. The server runs its TypeScript through
// tsx (decision 002), but a worker thread does not inherit a loader registered with `--import`
// (Node 20), so the entry registers tsx through its documented API (`tsx/esm/api`, the same way
// bench/load.ts starts its worker), then imports the task module named in workerData. That works the
// same under `node --import tsx server/main.ts` (npm start, npm run serve), under Vitest and from a
// plain `node` process.
//
// Once the module is loaded the worker says { ready: true }; then each message is one task's input,
// answered { ok: true, value } or { ok: false, error } with the error's catalogue code and field, so
// that the pool rebuilds the same ApiError (and the same translated answer) on the main thread.
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

if (!parentPort) throw new Error("worker-entry.mjs runs in a worker thread");
const port = parentPort;
const { module, exportName, niceIncrement } = workerData;

// On Linux the nice value belongs to each thread, and setpriority(PRIO_PROCESS, 0) (what
// os.setPriority(priority) calls) applies to the calling thread only: this worker gives way to the
// event loop's thread and leaves every other thread of the process as it was. Elsewhere (macOS,
// Windows) the call would change the whole process, so it is not made.
if (niceIncrement > 0 && process.platform === "linux") {
  try {
    os.setPriority(Math.min(19, os.getPriority() + niceIncrement));
  } catch {
    // Not allowed here (a container without the right): the worker runs at normal priority.
  }
}

register();
const task = (await import(module))[exportName];
if (typeof task !== "function") throw new Error(`${module} has no function ${exportName}`);

port.on("message", async (input) => {
  try {
    port.postMessage({ ok: true, value: await task(input) });
  } catch (error) {
    port.postMessage({
      ok: false,
      error: {
        code: typeof error?.code === "string" ? error.code : undefined,
        field: typeof error?.field === "string" ? error.field : undefined,
        message: String(error?.message ?? error),
        stack: typeof error?.stack === "string" ? error.stack : undefined,
      },
    });
  }
});
port.postMessage({ ready: true });
