// What the browser tests share: a built authority on a free loopback port,
// Debian's Chromium (never a downloaded browser) through playwright-core,
// repeatable page randomness, Connect JSON calls, and a click that
// tolerates the page being drawn again under it.

import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const shots = process.env.SCREENSHOTS;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on("error", rej);
  });
}

/**
 * startServer runs AUTHORITY_BIN (else a `go build` of it into work) and
 * waits for its page. With data, the tables are durable in work/data and
 * crash() kills the server (-9) and starts it again on the same port: the
 * connections drop, the tables come back.
 */
export async function startServer(work, { data = false } = {}) {
  let bin = process.env.AUTHORITY_BIN;
  if (!bin) {
    bin = join(work, "authority");
    execFileSync("go", ["build", "-o", bin, "./cmd/authority"], { cwd: resolve(import.meta.dirname, "../.."), stdio: "inherit" });
  }
  const port = await freePort();
  const args = ["--listen", `127.0.0.1:${port}`, ...(data ? ["--data", join(work, "data")] : [])];
  let log = "";
  const run = () => {
    const p = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"] });
    p.stderr.on("data", (b) => (log = (log + b).slice(-20000)));
    return p;
  };
  const base = `http://127.0.0.1:${port}`;
  const ready = async () => {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(base + "/")).ok) return;
      } catch {
        if (i > 100) throw new Error("the server did not start: " + log);
        await sleep(100);
      }
    }
  };
  const server = { base, proc: run(), log: () => log };
  server.crash = async () => {
    const old = server.proc;
    const gone = new Promise((r) => old.once("exit", r));
    old.kill("SIGKILL");
    await gone;
    server.proc = run();
    await ready();
  };
  await ready();
  return server;
}

/** launch starts headless Chromium with a fresh profile in work. */
export function launch(work) {
  return chromium.launchPersistentContext(join(work, "profile"), {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1280, height: 900 },
  });
}

/**
 * repeatable makes the page's crypto.getRandomValues a fixed sequence, so
 * that the seats' entropy, and with a fixed table seed the deals, are the
 * same every run (another salt, another sequence). Each load of the page
 * in a tab draws another sequence (request ids must not repeat after a
 * reload); the first load's is always the same.
 */
export function repeatable(ctx, salt = 0x9e3779b9) {
  return ctx.addInitScript((salt) => {
    const loads = Number(sessionStorage.getItem("test.loads") ?? "0");
    sessionStorage.setItem("test.loads", String(loads + 1));
    let x = (salt ^ (loads * 0x85ebca6b)) | 1;
    crypto.getRandomValues = (a) => {
      const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (let i = 0; i < b.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        b[i] = x & 0xff;
      }
      return a;
    };
  }, salt);
}

/** rpc calls the API as any HTTP client can: Connect's JSON protocol. */
export async function rpc(base, service, method, body) {
  const res = await fetch(`${base}/${service}/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * click clicks an element found a moment ago; false if the page was drawn
 * again meanwhile (every event redraws it) and the element is gone: the
 * loop then looks again.
 */
export async function click(el) {
  try {
    await el.click({ timeout: 2000 });
    return true;
  } catch (err) {
    if (/not attached|detached|Timeout|not enabled|disabled/i.test(String(err))) return false;
    throw err;
  }
}
