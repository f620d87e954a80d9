import { z } from "zod";

/** The capabilities the home's setup checklist follows, and their steps in order (issue 40, item 13). */
export const SETUP_CAPABILITIES = ["cards", "stores", "takeout", "collection", "mall"] as const;
export type SetupCapability = (typeof SETUP_CAPABILITIES)[number];

export const setupChecklist = z.object({
  capabilities: z.array(
    z.object({
      key: z.enum(SETUP_CAPABILITIES),
      /** In order; the first not done is the next step. `page` is where the step is done. */
      steps: z.array(z.object({ key: z.string(), done: z.boolean(), page: z.string() })),
    }),
  ),
});
export type SetupChecklist = z.infer<typeof setupChecklist>;
