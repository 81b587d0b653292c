/**
 * Landscapes drawn by code, rasterised to WebP when first asked for and then kept on disk.
 *
 * The demo catalogue stores only each event's landscape name (see event-images.ts); drawing
 * 3,200 pictures in three sizes at seeding would take minutes, while one card picture takes
 * 10 to 40 ms when a page first shows it. Only names that an event uses are drawn (one query on
 * a miss), so the disk holds at most three files per event whatever the requests ask for; two
 * requests for the same missing file share one drawing.
 *
 * Whether an event shows a landscape is the events' to say, and the files are kept by media's
 * storage: server/services.server.ts gives both through the deps below, so the illustrations read
 * no other feature's tables or code.
 */
import sharp from "sharp";
import { GENERATED_ROOT, parseGeneratedFile } from "./event-images.ts";
import { landscapeSvg } from "./landscape.ts";

/**
 * Bumped when the drawing changes, so that files drawn by an older version are not served: they
 * live in their own folder (`art/<version>/`), which can be deleted.
 */
export const LANDSCAPE_VERSION = "v1";

/** The file as WebP, drawn from the landscape's name. */
export async function renderGeneratedFile(file: string): Promise<Buffer | null> {
  const parsed = parseGeneratedFile(file);
  if (!parsed) return null;
  const svg = landscapeSvg(parsed.spec, parsed.width, parsed.height);
  return sharp(Buffer.from(svg)).webp({ quality: parsed.quality }).toBuffer();
}

/** The two calls of media's file storage (features/media/storage.server.ts) the landscapes use. */
export interface LandscapeStorage {
  read(key: string): Promise<Buffer | null>;
  put(key: string, data: Buffer, contentType: string): Promise<void>;
}

export function generatedImagesService(deps: {
  storage: LandscapeStorage;
  /** True when an event shows this picture (its site path, `/media/art/….webp`) as cover or header. */
  isShown: (path: string) => Promise<boolean>;
}) {
  const { storage } = deps;
  const drawing = new Map<string, Promise<Buffer | null>>();

  /** True when an event shows this landscape (any of its sizes). */
  async function used(file: string): Promise<boolean> {
    return deps.isShown(`${GENERATED_ROOT}${file.replace(/-\d+x\d+\.webp$/, ".webp")}`);
  }

  async function draw(file: string, key: string): Promise<Buffer | null> {
    if (!(await used(file))) return null;
    const data = await renderGeneratedFile(file);
    if (data) await storage.put(key, data, "image/webp");
    return data;
  }

  return {
    /** The WebP bytes of a file under GENERATED_ROOT, or null when no event shows it. */
    async file(file: string): Promise<Buffer | null> {
      if (!parseGeneratedFile(file)) return null;
      const key = `art/${LANDSCAPE_VERSION}/${file}`;
      const kept = await storage.read(key);
      if (kept) return kept;
      let pending = drawing.get(key);
      if (!pending) {
        pending = draw(file, key).finally(() => drawing.delete(key));
        drawing.set(key, pending);
      }
      return pending;
    },
  };
}
export type GeneratedImagesService = ReturnType<typeof generatedImagesService>;
