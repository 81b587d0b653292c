import type { FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { equalTiming, equalTimingHooks } from "./equal-timing.server.ts";

/** A clock and a sleep the test controls: no real time passes. */
function fakeTime() {
  let now = 0;
  const slept: number[] = [];
  const timing = equalTiming({
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  });
  /** A light answer that did `ms` of work: returns how long it lasted in all. */
  const light = async (ms: number) => {
    const started = now;
    now += ms;
    await timing.pad(started);
    return now - started;
  };
  return { timing, slept, light };
}

describe("equal timing", () => {
  it("does not wait before the heavy path was ever measured", async () => {
    const { slept, light } = fakeTime();
    expect(await light(10)).toBe(10);
    expect(slept).toEqual([]);
  });

  it("shifts the light path by the difference of the two medians", async () => {
    const { timing, light } = fakeTime();
    for (const ms of [100, 90, 110]) timing.record(ms);
    // Light answers of 70 ms of work (median 70) wait 30 ms: 100 in all, the heavy median.
    expect(await light(70)).toBe(100);
    // A slower light answer keeps its own variation: the shift stays 30 ms.
    expect(await light(70)).toBe(100);
    expect(await light(80)).toBe(110);
  });

  it("takes the timers' recent lateness off its waits", async () => {
    let now = 0;
    const timing = equalTiming({
      now: () => now,
      // Every timer fires 4 ms late.
      sleep: async (ms) => {
        now += ms + 4;
      },
    });
    const light = async (ms: number) => {
      const started = now;
      now += ms;
      await timing.pad(started);
      return now - started;
    };
    timing.record(100);
    expect(await light(70)).toBe(104);
    expect(await light(70)).toBe(100);
    expect(await light(70)).toBe(100);
  });

  it("never waits when the light path is the slower one", async () => {
    const { timing, slept, light } = fakeTime();
    timing.record(50);
    expect(await light(80)).toBe(80);
    expect(slept).toEqual([]);
  });

  it("follows the recent answers only and ignores nonsense", async () => {
    const { timing, light } = fakeTime();
    for (let i = 0; i < 51; i++) timing.record(1000);
    timing.record(Number.NaN);
    timing.record(-5);
    // 51 newer samples of 20 ms replace the old ones.
    for (let i = 0; i < 51; i++) timing.record(20);
    expect(await light(5)).toBe(20);
  });
});

describe("equal timing hooks", () => {
  it("measure a route from routing to its serialised answer, and even out the path it names", async () => {
    let now = 0;
    const slept: number[] = [];
    const hooks = equalTimingHooks(
      (_request, reply) => (reply.statusCode === 201 ? "heavy" : reply.statusCode === 409 ? "light" : null),
      {
        now: () => now,
        sleep: async (ms) => {
          slept.push(ms);
          now += ms;
        },
      },
    );
    const answer = async (statusCode: number, workMs: number) => {
      const request = {} as FastifyRequest;
      const reply = { statusCode } as FastifyReply;
      const started = now;
      await hooks.onRequest(request);
      now += workMs;
      expect(await hooks.onSend(request, reply, "body")).toBe("body");
      return now - started;
    };
    expect(await answer(201, 90)).toBe(90);
    expect(await answer(201, 110)).toBe(110);
    expect(await answer(201, 100)).toBe(100);
    // "Already used" after 60 ms of work waits for the 40 ms difference of the medians.
    expect(await answer(409, 60)).toBe(100);
    // Answers that are not compared are left alone.
    expect(await answer(429, 5)).toBe(5);
    expect(slept).toEqual([40]);
  });
});
