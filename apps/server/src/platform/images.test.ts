import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { TEST_IMAGES } from "../../test/im-harness";
import { imageInfo, thumbnail } from "./images";

/** The reference pixels of the test picture: the PPM's RGB bytes (P6, 16×16, maxval 255). */
function ppmPixels(): Buffer {
  const ppm = TEST_IMAGES.ppm;
  return ppm.subarray(ppm.length - 16 * 16 * 3);
}

/** Decoded RGB pixels of an image, through sharp. */
async function rgb(data: Buffer): Promise<Buffer> {
  return sharp(data).removeAlpha().raw().toBuffer();
}

describe("image info and thumbnails (sharp)", () => {
  it("reads the format and size of PNG, JPEG, GIF and WebP; anything else is not an image", async () => {
    expect(await imageInfo(TEST_IMAGES.png)).toEqual({ width: 16, height: 16, format: "png" });
    expect(await imageInfo(TEST_IMAGES.jpg)).toEqual({ width: 16, height: 16, format: "jpeg" });
    const gif = await sharp(TEST_IMAGES.png).resize(32, 16, { fit: "fill" }).gif().toBuffer();
    expect(await imageInfo(gif)).toEqual({ width: 32, height: 16, format: "gif" });
    const webp = await sharp(TEST_IMAGES.png).webp().toBuffer();
    expect(await imageInfo(webp)).toEqual({ width: 16, height: 16, format: "webp" });
    expect(await imageInfo(Buffer.from("plain text, not an image"))).toBeNull();
    expect(await imageInfo(TEST_IMAGES.ppm)).toBeNull();
    expect(await imageInfo(TEST_IMAGES.png.subarray(0, 40))).toBeNull();
  });

  it("decodes the PNG exactly and the baseline JPEG within lossy tolerance of the original pixels", async () => {
    const ref = ppmPixels();
    expect((await rgb(TEST_IMAGES.png)).equals(ref)).toBe(true);
    const jpg = await rgb(TEST_IMAGES.jpg);
    let sum = 0;
    for (let i = 0; i < ref.length; i++) sum += Math.abs((jpg[i] ?? 0) - (ref[i] ?? 0));
    // 4:2:0 chroma on a 16×16 icon with hard edges: small on average.
    expect(sum / ref.length).toBeLessThan(12);
  });

  it("makes WebP thumbnails that fit the box, keep the aspect ratio and never enlarge", async () => {
    const square = await thumbnail(TEST_IMAGES.png, 8, 8);
    expect({ w: square.width, h: square.height }).toEqual({ w: 8, h: 8 });
    expect(await imageInfo(square.data)).toEqual({ width: 8, height: 8, format: "webp" });
    const narrow = await thumbnail(TEST_IMAGES.jpg, 100, 4);
    expect({ w: narrow.width, h: narrow.height }).toEqual({ w: 4, h: 4 });
    const wide = await sharp(TEST_IMAGES.png).resize(40, 20, { fit: "fill" }).png().toBuffer();
    const fitted = await thumbnail(wide, 10, 10);
    expect({ w: fitted.width, h: fitted.height }).toEqual({ w: 10, h: 5 });
    const small = await thumbnail(TEST_IMAGES.png, 64, 64);
    expect({ w: small.width, h: small.height }).toEqual({ w: 16, h: 16 });
    await expect(thumbnail(Buffer.from("not an image"), 8, 8)).rejects.toThrow();
  });
});
