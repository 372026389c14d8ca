// Dou Dizhu in the lobby: a choice of game at the top, then Dou Dizhu's own
// cards - a new table with the service's settings, join or watch by id, and
// the list of its tables (ListTables). The mahjong cards stay as they are;
// the choice hides one game's cards or the other's (style.css).

import { TableState } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { Bidding, type Table } from "../../../clients/ts/src/gen/doudizhu/authority/v1/doudizhu_pb.js";
import { describe, retrying } from "../api.js";
import { saveSession, type Session } from "../session.js";
import { ddz } from "./api.js";
import "./style.css";

const gameKey = "authority.lobby.game";

function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls = "", text = ""): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text) el.textContent = text;
  return el;
}

const secs = (v: string) => {
  const n = Number(v);
  return { seconds: BigInt(Math.floor(n)), nanos: Math.round((n - Math.floor(n)) * 1e9) };
};

/**
 * ddzLobby adds the choice of game and Dou Dizhu's cards to the lobby in
 * root. play opens a table; fail goes back to the lobby with a message.
 */
export function ddzLobby(root: HTMLElement, play: (s: Session) => void, fail: (message: string) => void) {
  const title = root.querySelector("h1");
  const games = h("nav", "games");
  games.id = "games";
  const choose = (game: string) => {
    root.dataset.game = game;
    sessionStorage.setItem(gameKey, game);
    if (title) title.textContent = game === "ddz" ? "Dou Dizhu" : "Mahjong";
    for (const b of games.querySelectorAll("button")) b.classList.toggle("on", b.dataset.game === game);
  };
  for (const [game, label] of [
    ["mahjong", "Mahjong"],
    ["ddz", "Dou Dizhu"],
  ]) {
    const b = h("button", "", label);
    b.type = "button";
    b.dataset.game = game;
    b.addEventListener("click", () => choose(game));
    games.append(b);
  }
  (title ?? root.firstChild)?.after(games);

  const create = h("form", "card ddz");
  create.id = "ddz-create";
  create.innerHTML = `
    <h2>New Dou Dizhu table</h2>
    <label>Your name <input name="name" value="player" maxlength="32"></label>
    <label>Bidding <select name="bidding">
      <option value="points">Bid 1, 2 or 3 (jiao fen)</option>
      <option value="call_rob">Call and rob (jiao dizhu, qiang dizhu)</option>
    </select></label>
    <label>Deals <input name="deals" type="number" min="1" max="64" value="1"></label>
    <label>Bomb cap <input name="bombcap" type="number" min="0" max="20" value="0"> <span class="hint">doublings by bombs and rockets, 0: no cap</span></label>
    <label><input type="checkbox" name="bots" checked> Bots fill the empty seats and the match starts now</label>
    <details><summary>Timers</summary>
      <label>Turn time (s) <input name="turn" type="number" min="1" step="any" placeholder="server default"></label>
      <label>Pause between deals (s) <input name="pause" type="number" min="0" step="any" placeholder="server default"></label>
      <label>Spectator delay (s) <input name="delay" type="number" min="0" step="any" placeholder="server default"></label>
      <label>Disconnect grace (s) <input name="grace" type="number" min="0" step="any" placeholder="server default"></label>
    </details>
    <details><summary>Seed</summary>
      <label>Seed <input name="seed" pattern="[0-9a-fA-F]{64}" placeholder="64 hex digits: the same seed and entropy, the same deals"></label>
    </details>
    <button class="primary" type="submit">Create and sit down</button>`;
  create.addEventListener("submit", (e) => {
    e.preventDefault();
    void createTable(new FormData(create), play).catch((err) => fail(describe(err)));
  });

  const join = h("form", "card ddz");
  join.id = "ddz-join";
  join.innerHTML = `
    <h2>Join or watch a Dou Dizhu table by id</h2>
    <label>Table id <input name="id" required></label>
    <label>Your name <input name="name" value="player" maxlength="32"></label>
    <div class="row"><button class="primary" type="submit" name="do" value="join">Join</button>
    <button type="submit" name="do" value="watch">Spectate</button></div>`;
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(join);
    const id = String(f.get("id")).trim();
    if ((e as SubmitEvent).submitter?.getAttribute("value") === "watch") open({ game: "ddz", tableId: id, seat: -1, token: "" }, play);
    else void joinTable(id, String(f.get("name")), play).catch((err) => fail(describe(err)));
  });

  const list = h("section", "card ddz");
  list.innerHTML = `<h2>Dou Dizhu tables</h2><div id="ddz-tables">loading...</div>`;
  root.append(create, join, list);
  choose(sessionStorage.getItem(gameKey) === "ddz" ? "ddz" : "mahjong");

  const refresh = async () => {
    const el = list.querySelector("#ddz-tables");
    if (!el) return;
    try {
      const res = await ddz.listTables({ states: [TableState.WAITING, TableState.PLAYING], pageSize: 20 });
      el.replaceChildren(...(res.tables.length ? res.tables.map((t) => tableRow(t, play, fail)) : [h("p", "", "No tables yet.")]));
    } catch (err) {
      el.textContent = describe(err);
    }
  };
  void refresh();
  const timer = window.setInterval(() => (root.isConnected ? void refresh() : window.clearInterval(timer)), 5000);
}

function tableRow(t: Table, play: (s: Session) => void, fail: (message: string) => void): HTMLElement {
  const row = h("div", "table-row");
  const taken = t.seats.filter((s) => s.taken).length;
  const st = t.settings;
  const rules = `${st?.bidding === Bidding.CALL_ROB ? "call and rob" : "bid 1-3"} · ${st?.deals || 1} deal${(st?.deals || 1) === 1 ? "" : "s"}`;
  row.append(h("code", "", t.tableId), h("span", "", `${rules} · ${TableState[t.state].toLowerCase()} · ${taken}/3 seated`));
  if (t.state === TableState.WAITING) {
    const b = h("button", "", "Join");
    b.type = "button";
    b.addEventListener("click", () => void joinTable(t.tableId, "player", play).catch((err) => fail(describe(err))));
    row.append(b);
  }
  const w = h("button", "", "Spectate");
  w.type = "button";
  w.addEventListener("click", () => open({ game: "ddz", tableId: t.tableId, seat: -1, token: "" }, play));
  row.append(w);
  return row;
}

function open(s: Session, play: (s: Session) => void) {
  saveSession(s);
  play(s);
}

async function createTable(f: FormData, play: (s: Session) => void) {
  const settings: Record<string, unknown> = {
    bidding: f.get("bidding") === "call_rob" ? Bidding.CALL_ROB : Bidding.POINTS,
    deals: Number(f.get("deals") || 1),
    bombCap: Number(f.get("bombcap") || 0),
    fillWithBots: f.get("bots") === "on",
  };
  for (const [field, key] of [
    ["turnTime", "turn"],
    ["roundPause", "pause"],
    ["spectatorDelay", "delay"],
    ["disconnectGrace", "grace"],
  ]) {
    const v = String(f.get(key) ?? "");
    if (v !== "") settings[field] = secs(v);
  }
  const seed = String(f.get("seed") ?? "");
  if (seed) settings.seed = Uint8Array.from(seed.match(/../g)!, (x) => parseInt(x, 16));
  const created = await ddz.createTable({ settings });
  const id = created.table!.tableId;
  const joined = await ddz.joinTable({ tableId: id, name: String(f.get("name")), entropy: crypto.getRandomValues(new Uint8Array(32)) });
  const s: Session = { game: "ddz", tableId: id, seat: joined.seat, token: joined.seatToken, ownerToken: created.ownerToken };
  saveSession(s);
  if (settings.fillWithBots) await retrying(() => ddz.startTable({ tableId: id, token: created.ownerToken }));
  play(s);
}

async function joinTable(id: string, name: string, play: (s: Session) => void) {
  const joined = await ddz.joinTable({ tableId: id, name, entropy: crypto.getRandomValues(new Uint8Array(32)) });
  open({ game: "ddz", tableId: id, seat: joined.seat, token: joined.seatToken }, play);
}
