import { z } from "zod";

/**
 * The developer portal (`/Developer`, issue 29): signing examples of the open purchase API in several
 * languages with the worked example's values, and the callback tester.
 */
export const developerExample = z.object({
  language: z.string(),
  file: z.string(),
  run: z.string(),
  source: z.string(),
});
export const developerExamplesReply = z.object({
  examples: z.array(developerExample),
  worked: z.object({
    secret: z.string(),
    method: z.string(),
    pathWithQuery: z.string(),
    timestamp: z.string(),
    nonce: z.string(),
    body: z.string(),
    bodyHash: z.string(),
    canonical: z.string(),
    signature: z.string(),
  }),
});
export type DeveloperExamples = z.infer<typeof developerExamplesReply>;

/** The callback tester's result: what was sent, the receiver's HTTP status and the time; never the receiver's body (issue 38). */
export const callbackTestReply = z.object({
  url: z.string(),
  sent: z.object({ headers: z.record(z.string(), z.string()), body: z.string() }),
  status: z.number().int().nullable(),
  elapsedMs: z.number().int(),
  error: z.string().nullable(),
});
export type CallbackTestReply = z.infer<typeof callbackTestReply>;
