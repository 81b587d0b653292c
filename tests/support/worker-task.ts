/** A task module for the worker pool's tests (features/tracks/worker-pool.test.ts). */
import { ApiError } from "../../shared/api-error.ts";

export type WorkerTestInput =
  | { op: "echo"; value: unknown }
  | { op: "spin"; ms: number }
  | { op: "throw-api" }
  | { op: "throw" }
  | { op: "exit" }
  | { op: "nice" };

export async function run(input: WorkerTestInput): Promise<unknown> {
  switch (input.op) {
    case "echo":
      return input.value;
    case "spin": {
      const end = Date.now() + input.ms;
      while (Date.now() < end) {
        // busy, as a pathological file would keep a worker
      }
      return "spun";
    }
    case "throw-api":
      throw new ApiError("GPX_EMPTY");
    case "throw":
      throw new TypeError("not an ApiError");
    case "exit":
      process.exit(3);
      return null;
    case "nice": {
      const os = await import("node:os");
      return os.getPriority();
    }
  }
}
