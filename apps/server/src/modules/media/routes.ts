import type { Readable } from "node:stream";
import {
  TUS_VERSION,
  envelope,
  libraryBatchAddReply,
  libraryBatchAddReq,
  libraryPage,
  libraryPagerReq,
  videoInfo,
  videoInfoReq,
} from "@tessera/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam, routeDocs } from "../../platform/http/route";
import { userFileHeaders } from "../../platform/storage/serve";
import type { MediaService, UploadState } from "./service";
import {
  TUS_CONTENT_TYPE,
  TUS_EXTENSIONS,
  TUS_MAX_SIZE,
  TusError,
  checkTusVersion,
  intHeader,
  parseRange,
} from "./tus";

const docs = routeDocs("media");
/** The pages that upload: the video library (and any page embedding the upload dialog names itself here). */
const MEDIA_PAGES = ["business/VideoLibrary"];
/** Response header naming the video a finished upload became (tus leaves the final reply's body empty). */
export const VIDEO_ID_HEADER = "Tessera-Video-Id";

export interface MediaRouteDeps {
  media: MediaService;
  guard: Guard;
}

function tusHeaders(reply: FastifyReply, state: UploadState): FastifyReply {
  reply.header("Upload-Offset", String(state.offset)).header("Cache-Control", "no-store");
  if (state.videoId !== null) reply.header(VIDEO_ID_HEADER, String(state.videoId));
  return reply;
}

/**
 * `/api/media`: the tus 1.0 upload endpoint (`uploads`: OPTIONS, POST creation, HEAD, PATCH, DELETE
 * termination) and signed playback of stored videos (`files/{id}`, with Range).
 */
export function mediaRoutes({ media, guard }: MediaRouteDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const pre = guard({ roles: ["business"], menu: MEDIA_PAGES });

    // eslint-disable-next-line @typescript-eslint/require-await
    const tusPlugin: FastifyPluginAsyncZod = async (tus) => {
      // PATCH bodies stream to disk as they arrive: never buffered, never held to the JSON body limit.
      // Any other type reaches the handler unparsed too, which answers 415 as tus asks.
      tus.removeAllContentTypeParsers();
      tus.addContentTypeParser(TUS_CONTENT_TYPE, (_req, payload, done) => done(null, payload));
      tus.addContentTypeParser("*", (_req, payload, done) => done(null, payload));
      tus.addHook("onSend", async (_req, reply) => {
        reply.header("Tus-Resumable", TUS_VERSION);
      });
      const discovery = (_req: unknown, reply: FastifyReply) =>
        reply
          .code(204)
          .header("Tus-Version", TUS_VERSION)
          .header("Tus-Extension", TUS_EXTENSIONS)
          .header("Tus-Max-Size", String(TUS_MAX_SIZE))
          .send();
      tus.options(
        "/uploads",
        {
          schema: {
            tags: docs.tags,
            summary: "tus discovery: version, extensions (creation, termination), maximum size",
          },
        },
        discovery,
      );
      tus.options("/uploads/:id", { schema: { hide: true } }, discovery);

      tus.post(
        "/uploads",
        {
          schema: {
            ...docs,
            summary:
              "tus creation: Upload-Length and Upload-Metadata (filename, type, id, name, zhuanma, videosize in KB, isAudioType); 201 with Location",
          },
          preHandler: pre,
        },
        async (req, reply) => {
          checkTusVersion(req.headers["tus-resumable"]);
          const meta = req.headers["upload-metadata"];
          const id = await media.create(
            actorOf(req),
            intHeader(req.headers["upload-length"]),
            typeof meta === "string" ? meta : undefined,
          );
          return reply.code(201).header("Location", `/api/media/uploads/${id}`).header("Upload-Offset", "0").send();
        },
      );

      const uploadParam = z.object({ id: z.string().max(64) });
      tus.head(
        "/uploads/:id",
        {
          schema: { ...docs, summary: "tus: the upload's offset and length", params: uploadParam },
          preHandler: pre,
        },
        async (req, reply) => {
          checkTusVersion(req.headers["tus-resumable"]);
          const state = await media.state(actorOf(req), req.params.id);
          tusHeaders(reply, state).header("Upload-Length", String(state.length));
          if (state.metadata) reply.header("Upload-Metadata", state.metadata);
          return reply.code(200).send();
        },
      );

      tus.patch(
        "/uploads/:id",
        {
          schema: {
            ...docs,
            summary: "tus: append bytes (application/offset+octet-stream) at Upload-Offset",
            params: uploadParam,
          },
          preHandler: pre,
        },
        async (req, reply) => {
          checkTusVersion(req.headers["tus-resumable"]);
          const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
          if (type !== TUS_CONTENT_TYPE) throw new TusError(415, "media.contentType");
          const state = await media.append(
            actorOf(req),
            req.params.id,
            intHeader(req.headers["upload-offset"]),
            req.body as Readable,
          );
          return tusHeaders(reply, state).code(204).send();
        },
      );

      tus.delete(
        "/uploads/:id",
        {
          schema: { ...docs, summary: "tus termination: cancel an unfinished upload", params: uploadParam },
          preHandler: pre,
        },
        async (req, reply) => {
          checkTusVersion(req.headers["tus-resumable"]);
          await media.terminate(actorOf(req), req.params.id);
          return reply.code(204).send();
        },
      );
    };
    await app.register(tusPlugin);

    app.get(
      "/files/:id",
      {
        schema: {
          tags: docs.tags,
          summary: "Play a stored video or audio file through its signed address (Range requests supported)",
          params: idParam,
          querystring: z.object({ e: z.coerce.number().int().nonnegative(), s: z.string().max(64) }),
        },
      },
      async (req, reply) => {
        const video = await media.playable(req.params.id, req.query.e, req.query.s);
        const range = parseRange(req.headers.range, video.bytes);
        // The shared user-file headers (type allowlist, nosniff, sandbox CSP); the Range handling stays here.
        userFileHeaders(reply, { contentType: video.content_type, cacheControl: "private, max-age=3600" }).header(
          "Accept-Ranges",
          "bytes",
        );
        if (range === "unsatisfiable") {
          return reply.code(416).header("Content-Range", `bytes */${video.bytes}`).send();
        }
        const opened = await media.openFile(video.storage_key, range === "all" ? undefined : range);
        if (range === "all") return reply.code(200).header("Content-Length", String(opened.size)).send(opened.stream);
        return reply
          .code(206)
          .header("Content-Range", `bytes ${range.start}-${range.end}/${opened.size}`)
          .header("Content-Length", String(range.end - range.start + 1))
          .send(opened.stream);
      },
    );
  };
}

/**
 * The e-commerce calls of the video library (spec 01 §7, legacy, all POST), under `/api/ecommerce`:
 * `course/video/info`, `videolibrary/batchadd`, `videolibrary/pager`.
 */
export function ecommerceMediaRoutes({ media, guard }: MediaRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["business"], menu: MEDIA_PAGES });
    app.post(
      "/course/video/info",
      {
        schema: {
          ...docs,
          summary: "One uploaded video: name, size (KB), kind and a signed playback address",
          body: videoInfoReq,
          response: { 200: envelope(videoInfo) },
        },
        preHandler: pre,
      },
      async (req) => ok(await media.videoInfo(actorOf(req), req.body.videoid)),
    );
    app.post(
      "/videolibrary/batchadd",
      {
        schema: {
          ...docs,
          summary: "Add uploaded videos to the video library: type_id and a list of {name, size, videoid}",
          body: libraryBatchAddReq,
          response: { 200: envelope(libraryBatchAddReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await media.addToLibrary(actorOf(req), req.body)),
    );
    app.post(
      "/videolibrary/pager",
      {
        schema: {
          ...docs,
          summary: "The video library, newest first (page, pagesize, optional type_id and name)",
          body: libraryPagerReq,
          response: { 200: envelope(libraryPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await media.library(actorOf(req), req.body)),
    );
  };
}
