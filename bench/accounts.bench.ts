import type { RunningServer } from "./lib/server";
import { runLoad, type LoadResult } from "./lib/load";

const PASSWORD = "Bench#2026pass";

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

async function register(server: RunningServer): Promise<string> {
  const email = `bench-${Date.now()}@example.com`;
  const post = (path: string, body: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  await post("/api/card-user/sendEmail", { email, scene: "register" });
  const outbox = await json<{ data: { list: { body: string }[] } }>(
    await fetch(`${server.baseUrl}/api/dev/outbox?to=${email}`),
  );
  const code = /\b(\d{6})\b/.exec(outbox.data.list[0]?.body ?? "")?.[1] ?? "";
  const reg = await json<{ code: number; msg: string }>(
    await post("/api/card-user/register", {
      email,
      emailCode: code,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      orgName: "Bench Ltd",
    }),
  );
  if (reg.code !== 1) throw new Error(`register failed: ${reg.msg}`);
  return email;
}

const ok = (status: number, body: string) => status === 200 && body.startsWith('{"code":1');

/** Login requests per second (Argon2id-bound) and GET userInfo latency. */
export async function benchAccounts(server: RunningServer, seconds: number): Promise<Record<string, LoadResult>> {
  const email = await register(server);
  const login = await runLoad({
    url: `${server.baseUrl}/api/card-user/login`,
    method: "POST",
    body: { email, password: PASSWORD },
    concurrency: 4,
    durationSeconds: seconds,
    check: ok,
  });
  const token = (
    await json<{ data: { token: string } }>(
      await fetch(`${server.baseUrl}/api/card-user/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: PASSWORD }),
      }),
    )
  ).data.token;
  const userInfo = await runLoad({
    url: `${server.baseUrl}/api/card-user/userInfo`,
    method: "GET",
    headers: { "x-auth-token": token },
    concurrency: 16,
    durationSeconds: seconds,
    check: ok,
  });
  return { "POST login": login, "GET userInfo": userInfo };
}
