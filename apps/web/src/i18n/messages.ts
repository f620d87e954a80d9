import { MESSAGES, type Lang } from "@tessera/contracts";

export interface NestedMessages {
  [key: string]: string | NestedMessages;
}

/**
 * The contracts' message catalogue as an i18next resource: `validation.emailEmpty` becomes
 * `{validation: {emailEmpty: ...}}` in namespace `msg`, so forms show exactly the server's texts.
 */
export function messageResources(lang: Lang): NestedMessages {
  const out: NestedMessages = {};
  for (const [key, texts] of Object.entries(MESSAGES)) {
    const parts = key.split(".");
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = texts[lang];
        return;
      }
      const next = node[part];
      if (typeof next === "object") {
        node = next;
      } else {
        const created: NestedMessages = {};
        node[part] = created;
        node = created;
      }
    });
  }
  return out;
}
