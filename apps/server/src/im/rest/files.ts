import type { FastifyInstance } from "fastify";
import { imError } from "../errors";
import { boolParam, intParam, queryOf, userOf } from "./http";
import type { MultipartBody } from "../../platform/http/multipart";
import { serveUserFile } from "../../platform/storage/serve";
import type { RouteContext } from "./plugin";

type P<T extends string> = { Params: Record<T, string> };

/** Message attachments: upload (multipart field `file`) and download with the share secret. */
export function fileRoutes(im: FastifyInstance, { svc }: RouteContext): void {
  im.post("/chatfiles", async (req, reply) => {
    const owner = userOf(req);
    const body = req.body as MultipartBody | undefined;
    if (!body || typeof body !== "object" || !("files" in body)) {
      throw imError("uploadFailed", { reason: "expected multipart/form-data with a file" });
    }
    const q = queryOf(req);
    const row = await svc.files.upload(
      owner,
      body.files.find((f) => f.field === "file"),
      {
        restricted: (req.headers["restrict-access"] ?? q["restrict-access"]) !== "false",
        chatType: q["chat-type"] ?? null,
        chatTarget: q["chat-target"] ?? null,
      },
    );
    return reply.status(200).send(svc.files.presentUpload(req, row));
  });

  /**
   * Download: public, like the published service (image tags cannot send headers), but a restricted
   * file needs its share secret, in the `share-secret` header or query. `thumbnail=true` asks for a
   * thumbnail of an image, sized by `thumbnail-width` / `thumbnail-height`; `size=small|large` (the
   * chat SDK 5's image URLs) a downscaled WebP copy of an image, made once and kept, served without
   * the secret, as is the large copy to a bare request for a restricted image (docs/architecture.md,
   * "Chat files the SDK 5 shows").
   */
  im.get<P<"uuid">>("/chatfiles/:uuid", { config: { imPublic: true } }, async (req, reply) => {
    const q = queryOf(req);
    const header = req.headers["share-secret"];
    const secret = (typeof header === "string" && header !== "" ? header : undefined) ?? q["share-secret"];
    const file = await svc.files.download(req.params.uuid, {
      secret,
      thumbnail: boolParam(q.thumbnail) ?? false,
      ...((q.size === "small" || q.size === "large") && { variant: q.size }),
      ...(q["thumbnail-width"] !== undefined && {
        width: intParam(q["thumbnail-width"], "thumbnail-width", { min: 1 }),
      }),
      ...(q["thumbnail-height"] !== undefined && {
        height: intParam(q["thumbnail-height"], "thumbnail-height", { min: 1 }),
      }),
    });
    // Inline only for a sniffed image, audio or video; nosniff and a sandbox CSP on every file (platform/storage/serve.ts).
    return serveUserFile(
      reply.status(200),
      {
        contentType: file.contentType,
        filename: file.filename,
        size: file.size,
        cacheControl: "private, max-age=86400",
      },
      file.stream,
    );
  });
}
