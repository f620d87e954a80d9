import { loadSharp } from "./heavy-libraries";

export interface ImageInfo {
  width: number;
  height: number;
  format: "jpeg" | "png" | "webp" | "gif";
}

const ACCEPTED = new Set(["jpeg", "png", "webp", "gif"]);
/** Refuse decompression bombs: at most 40 megapixels. */
const MAX_PIXELS = 40_000_000;

/** Reads an uploaded image's format and size; null when the bytes are not an accepted image. */
export async function imageInfo(data: Buffer): Promise<ImageInfo | null> {
  try {
    const sharp = await loadSharp();
    const meta = await sharp(data, { limitInputPixels: MAX_PIXELS }).metadata();
    if (!meta.format || !ACCEPTED.has(meta.format) || !meta.width || !meta.height) return null;
    return { width: meta.width, height: meta.height, format: meta.format as ImageInfo["format"] };
  } catch {
    return null;
  }
}

/**
 * A thumbnail that fits in `maxWidth` x `maxHeight` (never enlarged), as WebP, with the EXIF
 * orientation applied so phone photos stand the right way up.
 */
export async function thumbnail(
  data: Buffer,
  maxWidth: number,
  maxHeight = maxWidth,
): Promise<{ data: Buffer; width: number; height: number }> {
  const sharp = await loadSharp();
  const { data: out, info } = await sharp(data, { limitInputPixels: MAX_PIXELS })
    .rotate()
    .resize({ width: maxWidth, height: maxHeight, fit: "inside", withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  return { data: out, width: info.width, height: info.height };
}
