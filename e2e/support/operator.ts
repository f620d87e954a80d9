/** The platform operator the e2e server creates at first start (OPS_EMAIL / OPS_PASSWORD). */
export const E2E_OPERATOR = { email: "ops@tessera.local", password: "Operator#2026" } as const;
