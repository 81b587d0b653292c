import { describe, expect, it } from "vitest";
import { createWorkGate } from "./image-work.server.ts";

/** A job that runs until released, recording how many jobs ran at once. */
function jobs() {
  let running = 0;
  let most = 0;
  const order: string[] = [];
  const releases = new Map<string, () => void>();
  const job =
    (name: string, fail = false) =>
    async () => {
      running++;
      most = Math.max(most, running);
      order.push(name);
      await new Promise<void>((resolve) => releases.set(name, resolve));
      running--;
      if (fail) throw new Error(`${name} failed`);
      return name;
    };
  const release = async (name: string) => {
    for (let i = 0; i < 20 && !releases.has(name); i++) await new Promise((r) => setTimeout(r, 0));
    releases.get(name)?.();
  };
  return { job, release, order, most: () => most };
}

describe("image work gate", () => {
  it("runs one job at a time in arrival order, keeps maxQueue waiting and refuses more with SERVER_BUSY", async () => {
    const gate = createWorkGate({ concurrency: 1, maxQueue: 2 });
    const { job, release, order, most } = jobs();
    const a = gate.run(job("a"));
    const b = gate.run(job("b", true));
    const c = gate.run(job("c"));
    expect(gate.saturated()).toBe(true);
    await expect(gate.run(job("d"))).rejects.toMatchObject({ code: "SERVER_BUSY", status: 503 });
    expect(gate.stats()).toEqual({ running: 1, waiting: 2 });

    await release("a");
    expect(await a).toBe("a");
    await release("b");
    await expect(b).rejects.toThrow("b failed");
    // A new job arriving while c waits its turn does not jump the queue.
    const e = gate.run(job("e"));
    await release("c");
    expect(await c).toBe("c");
    await release("e");
    expect(await e).toBe("e");
    expect(order).toEqual(["a", "b", "c", "e"]);
    expect(most()).toBe(1);
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });
});
