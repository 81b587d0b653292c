import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { storedZip, unzipBounded, type ZipEntry, ZipRefusal, zipArchive } from "./zip-entries.server.ts";

const limits = { maxUnpackedBytes: 1024 * 1024, maxEntries: 10 };
const all = () => true;

function deflated(name: string, text: string, overrides: Partial<ZipEntry> = {}): ZipEntry {
  const content = Buffer.from(text);
  return {
    name,
    data: zlib.deflateRawSync(content),
    method: 8,
    crc: zlib.crc32(content),
    size: content.length,
    ...overrides,
  };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ZipRefusal) return error.reason;
    throw error;
  }
  return "none";
}

describe("unzipBounded", () => {
  it("reads stored and deflated entries, keeping only those asked for, in the archive's order", () => {
    const zip = zipArchive([deflated("xl/workbook.xml", "<workbook/>"), deflated("xl/media/image1.png", "not read")]);
    const parts = unzipBounded(zip, (name) => name.endsWith(".xml"), limits);
    expect(parts.map((p) => [p.name, p.content.toString()])).toEqual([["xl/workbook.xml", "<workbook/>"]]);
    const again = unzipBounded(storedZip(parts), all, limits);
    expect(again.map((p) => [p.name, p.content.toString()])).toEqual([["xl/workbook.xml", "<workbook/>"]]);
  });

  it("refuses declared sizes over the budget before inflating anything", () => {
    // The data is not even deflate: only the declared size was read.
    const bomb = zipArchive([
      { name: "a.xml", data: Buffer.from("garbage"), method: 8, crc: 0, size: 2 * 1024 * 1024 },
    ]);
    expect(refusal(() => unzipBounded(bomb, all, limits))).toBe("tooLarge");
    const many = zipArchive(Array.from({ length: 11 }, (_, i) => deflated(`${i}.xml`, "x")));
    expect(refusal(() => unzipBounded(many, all, limits))).toBe("tooLarge");
  });

  it("stops an entry that inflates past its declared size, and checks its checksum", () => {
    const liar = deflated("a.xml", "x".repeat(100_000), { size: 1000 });
    expect(refusal(() => unzipBounded(zipArchive([liar]), all, limits))).toBe("damaged");
    const wrongCrc = deflated("a.xml", "<a/>", { crc: 1234 });
    expect(refusal(() => unzipBounded(zipArchive([wrongCrc]), all, limits))).toBe("damaged");
  });

  it("refuses what is not a plain zip: no archive, another method, an encrypted entry", () => {
    expect(refusal(() => unzipBounded(Buffer.from("PK\u0003\u0004 not a zip"), all, limits))).toBe("damaged");
    const bzip2 = zipArchive([deflated("a.xml", "<a/>", { method: 12 as 8 })]);
    expect(refusal(() => unzipBounded(bzip2, all, limits))).toBe("damaged");
    const encrypted = zipArchive([deflated("a.xml", "<a/>")]);
    // The central directory entry's flags: bit 0, encrypted.
    const flags = encrypted.lastIndexOf(Buffer.from("PK\u0001\u0002")) + 8;
    encrypted.writeUInt16LE(encrypted.readUInt16LE(flags) | 1, flags);
    expect(refusal(() => unzipBounded(encrypted, all, limits))).toBe("damaged");
  });
});
