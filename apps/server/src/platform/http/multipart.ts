import { readFile, stat } from "node:fs/promises";
import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { invalid } from "./errors";

/**
 * multipart/form-data uploads with @fastify/multipart: each file part streams to a temporary file as it
 * arrives, cut off at the size limit (the body is never held whole in memory), and the temporary files
 * are removed when the reply has been sent.
 */

/** A file part on disk, until the reply is sent. */
export interface SavedPart {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  path: string;
}

/** A file part's bytes, for the uploads that work on them in memory (images, PDFs, chat files). */
export interface UploadedPart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedPart[];
}

/**
 * Lets the routes of one (encapsulated) plugin accept multipart/form-data bodies whose file parts are at
 * most `fileSize` bytes each. Register it inside the plugin that owns the upload routes, before them;
 * the plugin's other routes keep their JSON parser.
 */
export async function acceptMultipart(app: FastifyInstance, fileSize: number): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: { fileSize, files: 4, fields: 32, fieldSize: 64 * 1024, parts: 40, headerPairs: 100 },
    throwFileSizeLimit: true,
  });
}

/** A file part was over the size limit (the library's FST_REQ_FILE_TOO_LARGE, HTTP 413). */
export function isFileTooLarge(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === "FST_REQ_FILE_TOO_LARGE";
}

/** A limit of the form was passed (file size, number of files, fields or parts: HTTP 413). */
export function isMultipartLimit(err: unknown): boolean {
  return (err as { statusCode?: unknown } | null)?.statusCode === 413;
}

/** Whether the request came as multipart/form-data to a plugin that accepts it. */
export function isMultipart(req: FastifyRequest): boolean {
  return typeof req.isMultipart === "function" && req.isMultipart();
}

/**
 * Streams the file parts to temporary files and collects the text fields (the last value of a repeated
 * name). Throws the library's errors: a limit passed (413), a malformed body (anything else).
 */
export async function saveMultipart(
  req: FastifyRequest,
): Promise<{ fields: Record<string, string>; files: SavedPart[] }> {
  const saved = await req.saveRequestFiles();
  const fields: Record<string, string> = {};
  for (const [name, entry] of Object.entries(saved.values as Record<string, unknown>)) {
    const last = (Array.isArray(entry) ? (entry as unknown[]).at(-1) : entry) as
      { type?: unknown; value?: unknown } | undefined;
    if (last?.type === "field" && typeof last.value === "string") fields[name] = last.value;
  }
  const files: SavedPart[] = [];
  for (const f of saved.files) {
    files.push({
      field: f.fieldname,
      filename: f.filename,
      contentType: f.mimetype,
      size: (await stat(f.filepath)).size,
      path: f.filepath,
    });
  }
  return { fields, files };
}

/** The multipart body with each file part's bytes read back from its temporary file. */
export async function loadMultipart(req: FastifyRequest): Promise<MultipartBody> {
  const { fields, files } = await saveMultipart(req);
  const loaded: UploadedPart[] = [];
  for (const f of files) {
    loaded.push({ field: f.field, filename: f.filename, contentType: f.contentType, data: await readFile(f.path) });
  }
  return { fields, files: loaded };
}

/**
 * The multipart body of a back-office upload: a 400 "Invalid parameter: file" when the request is not
 * multipart or is malformed; over a limit, the library's 413 (the envelope's "Invalid parameter: body").
 */
export async function readMultipart(req: FastifyRequest): Promise<MultipartBody> {
  if (!isMultipart(req)) throw invalid("validation.invalidParameter", "file", { field: "file" });
  try {
    return await loadMultipart(req);
  } catch (err) {
    if (isMultipartLimit(err)) throw err;
    throw invalid("validation.invalidParameter", "file", { field: "file" });
  }
}
