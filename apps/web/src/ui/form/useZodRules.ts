import type { FormRule } from "antd";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { isMessageKey } from "@tessera/contracts";

/** What we need of a zod schema, without importing zod into the web app. */
export interface SafeParser {
  safeParse(
    value: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

const NONE: readonly string[] = [];

/** Renders a contracts message key (`validation.emailEmpty`) in the interface language. */
export function useMessageText(): (key: string) => string {
  const { t } = useTranslation();
  return useCallback((key: string) => (isMessageKey(key) ? t(key, { ns: "msg" }) : key), [t]);
}

/**
 * antd rules backed by a contracts schema: a field is checked by parsing the whole form with the
 * shared schema and showing the first issue on that field, so web and server agree on every rule and
 * message (spec 01 §5). `extra` adds values that are not form fields (the version of the page).
 *
 * Untouched inputs are parsed as "" (what the user sees), not undefined: a missing value would stop
 * zod before the cross-field checks (password confirmation) run. Fields named in `optional` (selects
 * with no choice yet) stay undefined.
 */
export function useZodRules(
  schema: SafeParser,
  extra?: Record<string, unknown>,
  optional: readonly string[] = NONE,
): (field: string) => FormRule {
  const text = useMessageText();
  return useCallback(
    (field: string): FormRule =>
      ({ getFieldsValue }) => ({
        validator: () => {
          // Every registered field, untouched ones included (as undefined).
          const raw = getFieldsValue() as Record<string, unknown>;
          const values: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(raw)) values[k] = v === undefined && !optional.includes(k) ? "" : v;
          Object.assign(values, extra);
          const result = schema.safeParse(values);
          if (result.success) return Promise.resolve();
          const issue = result.error.issues.find((i) => i.path[0] === field);
          return issue ? Promise.reject(new Error(text(issue.message))) : Promise.resolve();
        },
      }),
    [schema, extra, optional, text],
  );
}
