/** The real-name page of the area a path belongs to (purchaser and supplier areas, both versions), or null. */
export function realNamePathFor(pathname: string): string | null {
  const area = /^\/(international\/sale|international\/business|sale|business)(\/|$)/.exec(pathname)?.[1];
  if (!area) return null;
  return `/${area}/${area.endsWith("business") ? "AuthenticationB" : "Authentication"}`;
}
