import { describe, expect, it } from "vitest";
import type { UserInfo } from "@tessera/contracts";
import { areaPrefixOf, chooserPathOf, loginPathOf, versionOfPath } from "./area";
import { createTokenStore, type StorageLike } from "./tokens";

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

const info: UserInfo = {
  userId: "1",
  kind: "merchant",
  loginAccount: "a@b.co",
  email: "a@b.co",
  phone: null,
  merchant: null,
  balances: null,
  brandInfo: null,
};

describe("token storage (spec 01 §3, §4)", () => {
  it("keeps domestic and international sessions under their own keys", () => {
    const storage = memoryStorage();
    const store = createTokenStore(storage);
    store.setToken("domestic", "d1");
    store.setInfo("domestic", info);
    store.setToken("international", "i1");
    expect(storage.data.get("x-auth-token")).toBe("d1");
    expect(storage.data.get("interToken")).toBe("i1");
    expect(JSON.parse(storage.data.get("userInfo") ?? "null")).toEqual(info);
    expect(store.getToken("international")).toBe("i1");
    expect(store.getInfo("domestic")).toEqual(info);
  });

  it("clearing a session drops its token and info, its chat token and order chat, not the other session", () => {
    const storage = memoryStorage();
    const store = createTokenStore(storage);
    store.setToken("domestic", "d1");
    store.setInfo("domestic", info);
    store.setToken("international", "i1");
    storage.setItem("im-token", "im");
    storage.setItem("orderChat", "{}");
    storage.setItem("inter-im-token", "iim");
    storage.setItem("interOrderChat", "{}");
    store.clear("domestic");
    expect([...storage.data.keys()].sort()).toEqual(["inter-im-token", "interOrderChat", "interToken"]);
  });

  it("logging out of the international area drops inter-im-token and interOrderChat, and leaves the domestic chat", () => {
    const storage = memoryStorage();
    const store = createTokenStore(storage);
    store.setToken("international", "i1");
    store.setInfo("international", info);
    storage.setItem("inter-im-token", "iim");
    storage.setItem("interOrderChat", "{}");
    store.setToken("domestic", "d1");
    storage.setItem("im-token", "im");
    store.clear("international");
    expect([...storage.data.keys()].sort()).toEqual(["im-token", "x-auth-token"]);
  });

  it("notifies subscribers on change", () => {
    const store = createTokenStore(memoryStorage());
    let calls = 0;
    const off = store.subscribe(() => (calls += 1));
    store.setToken("domestic", "x");
    store.clear("domestic");
    off();
    store.setToken("domestic", "y");
    expect(calls).toBe(2);
  });

  it("ignores corrupt stored info", () => {
    const storage = memoryStorage();
    storage.setItem("userInfo", "{not json");
    expect(createTokenStore(storage).getInfo("domestic")).toBeNull();
  });
});

describe("areas", () => {
  it("pages under /international use the international session", () => {
    expect(versionOfPath("/international/INlogin")).toBe("international");
    expect(versionOfPath("/international")).toBe("international");
    expect(versionOfPath("/international/sale/Home")).toBe("international");
    expect(versionOfPath("/internationalx")).toBe("domestic");
    expect(versionOfPath("/sale/Home")).toBe("domestic");
  });
  it("knows each version's login page, chooser and area prefix", () => {
    expect(loginPathOf("international")).toBe("/international/INlogin");
    expect(loginPathOf("domestic")).toBe("/login");
    expect(chooserPathOf("domestic")).toBe("/SelectUser");
    expect(chooserPathOf("international")).toBe("/international/SelectUser");
    expect(`${areaPrefixOf("international")}/sale/Home`).toBe("/international/sale/Home");
    expect(`${areaPrefixOf("domestic")}/business/Home`).toBe("/business/Home");
  });
});
