import { describe, expect, it } from "vitest";
import { TEST_IMAGES } from "../../../test/im-harness";
import { decodeJpeg, decodePng, encodePng, imageSize, scaleDown, thumbnail } from "./image";

/** The PPM's pixels (P6, 16×16, maxval 255). */
function ppmPixels(): Uint8Array {
  const ppm = TEST_IMAGES.ppm;
  return ppm.subarray(ppm.length - 16 * 16 * 3);
}

describe("image decoding and thumbnails", () => {
  it("reads dimensions of PNG, JPEG, GIF, BMP and WebP headers", () => {
    expect(imageSize(TEST_IMAGES.png)).toEqual({ width: 16, height: 16, format: "png" });
    expect(imageSize(TEST_IMAGES.jpg)).toEqual({ width: 16, height: 16, format: "jpeg" });
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.from([0x20, 0x00, 0x10, 0x00])]);
    expect(imageSize(gif)).toEqual({ width: 32, height: 16, format: "gif" });
    expect(imageSize(Buffer.from("plain text, not an image"))).toBeNull();
  });

  it("decodes PNG exactly and baseline JPEG within lossy tolerance of the original pixels", () => {
    const ref = ppmPixels();
    const png = decodePng(TEST_IMAGES.png);
    const jpg = decodeJpeg(TEST_IMAGES.jpg);
    expect(png && jpg).toBeTruthy();
    let pngDiff = 0;
    let jpgSum = 0;
    for (let i = 0; i < 256; i++) {
      for (let c = 0; c < 3; c++) {
        pngDiff = Math.max(pngDiff, Math.abs((png?.data[i * 4 + c] ?? 0) - (ref[i * 3 + c] ?? 0)));
        jpgSum += Math.abs((jpg?.data[i * 4 + c] ?? 0) - (ref[i * 3 + c] ?? 0));
      }
    }
    expect(pngDiff).toBe(0);
    // 4:2:0 chroma on a 16×16 icon with hard edges: small on average.
    expect(jpgSum / 768).toBeLessThan(12);
  });

  it("round-trips its own PNG encoding and scales by area averaging", () => {
    const data = new Uint8Array(4 * 4 * 4).map((_, i) => (i * 37) % 256);
    const img = { width: 4, height: 4, data };
    const back = decodePng(encodePng(img));
    expect(back?.width).toBe(4);
    expect(Buffer.from(back?.data ?? []).equals(Buffer.from(data))).toBe(true);
    const flat = { width: 2, height: 2, data: Uint8Array.from([0, 0, 0, 255, 100, 100, 100, 255, 200, 200, 200, 255, 100, 100, 100, 255]) };
    expect(Array.from(scaleDown(flat, 1, 1).data)).toEqual([100, 100, 100, 255]);
  });

  it("makes thumbnails of PNG and JPEG that fit the box, and none of other formats", () => {
    const t1 = thumbnail(TEST_IMAGES.png, 8, 8);
    expect(t1 && { w: t1.width, h: t1.height }).toEqual({ w: 8, h: 8 });
    expect(imageSize(t1?.png ?? Buffer.alloc(0))).toEqual({ width: 8, height: 8, format: "png" });
    const t2 = thumbnail(TEST_IMAGES.jpg, 100, 4);
    expect(t2 && { w: t2.width, h: t2.height }).toEqual({ w: 4, h: 4 });
    expect(thumbnail(Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(20)]), 8, 8)).toBeNull();
  });
});
