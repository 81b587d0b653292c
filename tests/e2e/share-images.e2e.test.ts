/**
 * What a social network reads of a page (no browser: the server-rendered HTML): og:image is a
 * JPEG or PNG address that answers 200 with the type og:image:type says and the size
 * og:image:width × og:image:height say — on an event page with a picture (a demo landscape, WebP
 * on the page itself), in both languages, and on a page without one (the default image).
 */
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";

const baseURL = inject("baseURL");

function metaContent(html: string, property: string): string | undefined {
  const tag = html.match(new RegExp(`<meta[^>]*property="${property}"[^>]*>`))?.[0];
  return tag?.match(/content="([^"]*)"/)?.[1]?.replaceAll("&amp;", "&");
}

async function expectShareImage(path: string) {
  const page = await fetch(`${baseURL}${path}`, { headers: { accept: "text/html" } });
  expect(page.status, path).toBe(200);
  const html = await page.text();
  const image = metaContent(html, "og:image");
  const type = metaContent(html, "og:image:type");
  const size = [metaContent(html, "og:image:width"), metaContent(html, "og:image:height")].map(Number);
  expect(type, path).toMatch(/^image\/(jpeg|png)$/);
  expect(size.every((n) => n > 0)).toBe(true);
  expect(image, path).toMatch(/^http/);
  const answer = await fetch(image as string);
  expect(answer.status, image).toBe(200);
  expect(answer.headers.get("content-type")).toBe(type);
  const meta = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
  expect([`image/${meta.format}`, meta.width, meta.height], image).toEqual([type, ...size]);
  return { image: image as string, html };
}

describe("og:image", () => {
  it("an event page with a picture names its JPEG share image, type and size, in both languages", async () => {
    const list = await (await fetch(`${baseURL}/api/events?perPage=20`)).json();
    const slugs: string[] = [];
    for (const item of list.items as { id: number; slug: string }[]) {
      const event = await (await fetch(`${baseURL}/api/event/${item.id}`)).json();
      if (event.headerImage) slugs.push(item.slug);
      if (slugs.length === 2) break;
    }
    expect(slugs.length).toBeGreaterThan(0);
    for (const slug of slugs)
      for (const path of [`/course/${slug}`, `/en/race/${slug}`]) {
        const { image } = await expectShareImage(path);
        expect(image).toMatch(/\/media\/share\/.+\.jpg$/);
      }
  });

  it("a page without a picture of its own names the default PNG", async () => {
    const { image } = await expectShareImage("/page/credits");
    expect(image).toBe(`${baseURL}/images/share-default.png`);
  });
});
