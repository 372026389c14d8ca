// The page: a lobby (create, list, join, spectate) and the table. A seat's
// token, its model and the seq it has seen are kept in sessionStorage, so
// a reload resumes the stream after that seq; a dropped stream is resumed
// the same way after a short wait.

import "./style.css";
import { ActionType } from "../../clients/ts/src/gen/mahjong/authority/v1/game_pb.js";
import {
  TableState,
  type Table,
} from "../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { describe, durationMs, requestId, retrying, tables } from "./api.js";
import { ddzLobby } from "./ddz/lobby.js";
import { DdzGame } from "./ddz/table.js";
import { loadSession, resume, saveSession, type Session } from "./session.js";
import { apply, emptyModel, fromView, type ActionPlain, type Ctx, type SeatState, type TableModel } from "./model.js";
import { ruleSetByKey, ruleSetOf, ruleSets } from "./rules/index.js";
import { buttonsOf, discardFor, renderTable, tileKeys, timerText, type UiState } from "./view.js";

const app = document.getElementById("app")!;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls = "", text = ""): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text) el.textContent = text;
  return el;
}

const ms = (d: { seconds: bigint; nanos: number } | undefined, dflt: number) => durationMs(d) ?? dflt;

const secs = (v: string) => {
  const n = Number(v);
  return { seconds: BigInt(Math.floor(n)), nanos: Math.round((n - Math.floor(n)) * 1e9) };
};

// ---- the lobby ----

let lobbyTimer: number | undefined;

function lobby(message = "") {
  current?.stop();
  current = undefined;
  saveSession(undefined);
  const root = h("main", "lobby");
  root.append(h("h1", "", "Mahjong"));
  if (message) root.append(h("p", "error", message));

  const create = h("form", "card");
  create.id = "create";
  create.innerHTML = `
    <h2>New table</h2>
    <label>Your name <input name="name" value="player" maxlength="32"></label>
    <label>Rules <select name="ruleset">${ruleSets.map((r) => `<option value="${r.key}">${r.name}</option>`).join("")}</select></label>
    ${ruleSets.map((r) => `<fieldset class="rule-options" data-rules="${r.key}"><legend>${r.name}</legend>${r.fields}</fieldset>`).join("")}
    <label><input type="checkbox" name="bots" checked> Bots fill the empty seats and the game starts now</label>
    <details><summary>Timers</summary>
      <label>Turn time (s) <input name="turn" type="number" min="1" step="any" placeholder="server default"></label>
      <label>Claim time (s) <input name="claim" type="number" min="1" step="any" placeholder="server default"></label>
      <label>Claim dwell (s) <input name="dwell" type="number" min="0" step="any" placeholder="server default"></label>
      <label>Round pause (s) <input name="pause" type="number" min="0" step="any" placeholder="server default"></label>
    </details>
    <details><summary>Seed</summary>
      <label>Seed <input name="seed" pattern="[0-9a-fA-F]{64}" placeholder="64 hex digits: the same seed and entropy, the same walls"></label>
    </details>
    <button class="primary" type="submit">Create and sit down</button>`;
  // Each rule set's options show when it is chosen (hidden fields are not sent).
  const ruleSelect = create.querySelector<HTMLSelectElement>("select[name=ruleset]")!;
  const showOptions = () =>
    create.querySelectorAll<HTMLFieldSetElement>(".rule-options").forEach((fs) => {
      fs.hidden = fs.dataset.rules !== ruleSelect.value;
      fs.disabled = fs.hidden;
    });
  ruleSelect.addEventListener("change", showOptions);
  showOptions();
  create.addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(create);
    void createTable(f).catch((err) => lobby(describe(err)));
  });

  const join = h("form", "card");
  join.id = "join";
  join.innerHTML = `
    <h2>Join or watch by id</h2>
    <label>Table id <input name="id" required></label>
    <label>Your name <input name="name" value="player" maxlength="32"></label>
    <div class="row"><button class="primary" type="submit" name="do" value="join">Join</button>
    <button type="submit" name="do" value="watch">Spectate</button></div>`;
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(join);
    const id = String(f.get("id")).trim();
    const watch = (e as SubmitEvent).submitter?.getAttribute("value") === "watch";
    if (watch) void spectate(id);
    else void joinTable(id, String(f.get("name"))).catch((err) => lobby(describe(err)));
  });

  const list = h("section", "card");
  list.innerHTML = `<h2>Tables</h2><div id="tables">loading...</div>`;
  root.append(create, join, list);
  ddzLobby(root, play, lobby);
  app.replaceChildren(root);
  const refresh = async () => {
    const el = document.getElementById("tables");
    if (!el) return;
    try {
      const res = await tables.listTables({ states: [TableState.WAITING, TableState.PLAYING], pageSize: 20 });
      el.replaceChildren(...(res.tables.length ? res.tables.map(tableRow) : [h("p", "", "No tables yet.")]));
    } catch (err) {
      el.textContent = describe(err);
    }
  };
  void refresh();
  window.clearInterval(lobbyTimer);
  lobbyTimer = window.setInterval(() => (document.getElementById("tables") ? void refresh() : window.clearInterval(lobbyTimer)), 5000);
}

function tableRow(t: Table): HTMLElement {
  const row = h("div", "table-row");
  const taken = t.seats.filter((s) => s.taken).length;
  const rules = ruleSetOf(t.settings?.ruleSet).describe(t);
  row.append(h("code", "", t.tableId), h("span", "rules", `${rules} · ${TableState[t.state].toLowerCase()} · ${taken}/4 seated`));
  if (t.state === TableState.WAITING) {
    const b = h("button", "", "Join");
    b.type = "button";
    b.addEventListener("click", () => void joinTable(t.tableId, "player").catch((err) => lobby(describe(err))));
    row.append(b);
  }
  const w = h("button", "", "Spectate");
  w.type = "button";
  w.addEventListener("click", () => void spectate(t.tableId));
  row.append(w);
  return row;
}

async function createTable(f: FormData) {
  const settings: Record<string, unknown> = {
    ...ruleSetByKey(String(f.get("ruleset"))).settings(f),
    fillWithBots: f.get("bots") === "on",
  };
  for (const [field, key] of [
    ["turnTime", "turn"],
    ["claimTime", "claim"],
    ["claimDwell", "dwell"],
    ["roundPause", "pause"],
  ]) {
    const v = String(f.get(key) ?? "");
    if (v !== "") settings[field] = secs(v);
  }
  const seed = String(f.get("seed") ?? "");
  if (seed) settings.seed = Uint8Array.from(seed.match(/../g)!, (x) => parseInt(x, 16));
  const created = await tables.createTable({ settings });
  const id = created.table!.tableId;
  const joined = await tables.joinTable({ tableId: id, name: String(f.get("name")), entropy: crypto.getRandomValues(new Uint8Array(32)) });
  const s: Session = { tableId: id, seat: joined.seat, token: joined.seatToken, ownerToken: created.ownerToken };
  saveSession(s);
  if (settings.fillWithBots) await retrying(() => tables.startTable({ tableId: id, token: created.ownerToken }));
  play(s);
}

async function joinTable(id: string, name: string) {
  const joined = await tables.joinTable({ tableId: id, name, entropy: crypto.getRandomValues(new Uint8Array(32)) });
  const s: Session = { tableId: id, seat: joined.seat, token: joined.seatToken };
  saveSession(s);
  play(s);
}

async function spectate(id: string) {
  const s: Session = { tableId: id, seat: -1, token: "" };
  saveSession(s);
  play(s);
}

// ---- the table ----

/** A table being played or watched: the stream, the model, the drawing. */
class Game {
  private model: TableModel;
  private ui: UiState;
  private ctx: Ctx = { turnMs: 20000, claimMs: 8000, ruleSet: 0, hooks: ruleSetOf(0) };
  private names: SeatState[] | undefined;
  private abort = new AbortController();
  private tick: number;

  constructor(private s: Session) {
    this.model = (s.model as TableModel | undefined) ?? emptyModel(s.seat);
    // A reload draws the saved table at once, with its rule set's screens.
    this.ctx.ruleSet = this.model.ruleSet ?? 0;
    this.ctx.hooks = ruleSetOf(this.ctx.ruleSet);
    this.ui = { riichiMode: false, busy: false, status: "connecting", tableId: s.tableId, dismissed: "", selected: [] };
    this.tick = window.setInterval(() => {
      const t = document.getElementById("timer");
      if (t) t.textContent = timerText(this.model);
    }, 250);
    this.draw();
    void this.run();
  }

  stop() {
    this.abort.abort();
    window.clearInterval(this.tick);
  }

  private draw() {
    if (!this.model.started) {
      this.drawWaiting();
      return;
    }
    renderTable(app, this.model, this.def, this.ui, this.handlers);
  }

  /** The rule set's descriptor: its state, its screens. */
  private get def() {
    return ruleSetOf(this.ctx.ruleSet);
  }

  private handlers = {
    act: (a: ActionPlain) => void this.act(a),
    toggleRiichi: () => {
      this.ui.riichiMode = !this.ui.riichiMode;
      this.draw();
    },
    select: (i: number) => {
      const k = this.ui.selected.indexOf(i);
      if (k >= 0) this.ui.selected.splice(k, 1);
      else if (this.ui.selected.length < 3) this.ui.selected.push(i);
      this.draw();
    },
    leave: () => void this.leave(),
    dismiss: () => {
      this.ui.dismissed = this.model.resultAt;
      this.draw();
    },
  };

  private table?: Table;

  private drawWaiting() {
    const root = h("main", "lobby");
    const card = h("section", "card");
    card.id = "waiting";
    card.append(h("h2", "", `Table ${this.s.tableId}`));
    card.append(h("p", "", this.s.seat >= 0 ? "Waiting for the table to start. Give the id to the other players." : "Waiting for the table to start."));
    const seats = h("ul");
    for (const st of this.table?.seats ?? []) seats.append(h("li", "", `seat ${st.seat}: ${st.taken ? st.name || "taken" : "free"}`));
    card.append(seats);
    if (this.s.seat >= 0) {
      const start = h("button", "primary", "Start now (bots take the free seats)");
      start.type = "button";
      start.addEventListener("click", () =>
        void tables.startTable({ tableId: this.s.tableId, token: this.s.ownerToken ?? this.s.token }).catch((err) => (this.ui.status = describe(err))),
      );
      card.append(start);
    }
    const leave = h("button", "", "Back to the lobby");
    leave.type = "button";
    leave.addEventListener("click", () => void this.leave());
    card.append(leave, h("p", "status", this.ui.status));
    root.append(card);
    app.replaceChildren(root);
  }

  private async leave() {
    this.stop();
    if (this.s.seat >= 0 && !this.model.final) {
      // A bot plays the seat from now on.
      await tables.leaveTable({ tableId: this.s.tableId, seatToken: this.s.token }).catch(() => undefined);
    }
    lobby();
  }

  private save() {
    this.s.model = this.model;
    saveSession(this.s);
  }

  private async readTable() {
    const res = await retrying(() => tables.getTable({ tableId: this.s.tableId }, { signal: this.abort.signal }));
    this.table = res.table;
    const st = res.table?.settings;
    const ruleSet = st?.ruleSet ?? 0;
    this.ctx = { turnMs: ms(st?.turnTime, 20000), claimMs: ms(st?.claimTime, 8000), ruleSet, settings: st, hooks: ruleSetOf(ruleSet) };
    this.model.ruleSet = ruleSet;
    this.names = (res.table?.seats ?? []).map((x) => ({ name: x.name, bot: x.bot }) as SeatState);
    if (this.names) this.model.seats.forEach((s, i) => {
      s.name ||= this.names![i]?.name ?? "";
      s.bot = this.names![i]?.bot ?? s.bot;
    });
    return res.table;
  }

  /** run follows the table until its game ends, resuming after every drop. */
  private async run() {
    await resume(this.abort.signal, {
      readTable: async () => (await this.readTable())?.state === TableState.WAITING,
      waiting: () => {
        this.ui.status = "waiting";
        this.drawWaiting();
      },
      follow: (connected) => this.follow(this.abort.signal, connected),
      over: () => !!this.model.final,
      restart: () => (this.model = emptyModel(this.s.seat, this.ctx.ruleSet)),
      lost: (message) => {
        this.ui.status = message;
        this.draw();
      },
      gone: (message) => lobby(message),
    });
  }

  private async follow(signal: AbortSignal, connected: () => void) {
    const after = BigInt(this.model.seq);
    if (this.s.seat < 0) {
      const stream = tables.spectate({ tableId: this.s.tableId, afterSeq: after }, { signal });
      this.ui.status = "watching";
      for await (const m of stream) {
        connected();
        if (m.event) this.onEvent(() => apply(this.model, m.event!, this.ctx));
      }
      return;
    }
    const stream = tables.streamEvents({ tableId: this.s.tableId, seatToken: this.s.token, afterSeq: after }, { signal });
    this.ui.status = "connected";
    // Resumed while nothing happens (the seat's own turn): say so now.
    if (this.model.started) this.draw();
    for await (const m of stream) {
      connected();
      if (m.item.case === "snapshot") {
        const snap = m.item.value;
        this.onEvent(() => fromView(snap.view!, snap.seq, this.names, this.ctx, durationMs(snap.timeLeft)));
      } else if (m.item.case === "event") {
        const ev = m.item.value;
        this.onEvent(() => apply(this.model, ev, this.ctx));
      }
    }
  }

  private onEvent(next: () => TableModel) {
    const before = this.model.offer;
    this.model = next();
    if (this.model.offer !== before && this.model.offer) {
      this.ui.busy = false;
      this.ui.riichiMode = false;
      this.ui.selected = [];
    }
    this.save();
    this.draw();
  }

  async act(a: ActionPlain) {
    if (this.ui.busy || !this.model.offer) return;
    this.ui.busy = true;
    this.draw();
    const id = requestId();
    const seqBefore = this.model.seq;
    try {
      await retrying(() =>
        tables.act({
          tableId: this.s.tableId,
          seatToken: this.s.token,
          lastSeq: BigInt(this.model.seq),
          requestId: id,
          action: { type: a.type, tile: a.tile, tiles: a.tiles, tsumogiri: a.tsumogiri, suit: a.suit, run: a.run },
        }),
      );
      // The offer is answered: the events that follow show the result. An
      // event that came meanwhile (the next offer, say) stays.
      if (this.model.seq === seqBefore) this.model.offer = undefined;
    } catch (err) {
      // Refused (a newer offer follows, or the window closed): say why.
      this.ui.status = describe(err);
    }
    this.ui.busy = false;
    this.ui.riichiMode = false;
    this.ui.selected = [];
    this.save();
    this.draw();
  }

  /** key plays the keyboard: 1-9 the buttons, a tile's letter its discard, space the drawn tile or pass, r riichi. */
  key(e: KeyboardEvent) {
    if (e.key === "Escape") {
      this.ui.dismissed = this.model.resultAt;
      this.draw();
      return;
    }
    const offer = this.model.offer;
    if (!offer || this.ui.busy) return;
    if (offer.choice) {
      // A choice the rule set draws itself (Sichuan's exchange and void).
      if (this.def.choiceKey?.(this.model, this.ui, this.handlers, e)) e.preventDefault();
      return;
    }
    const buttons = buttonsOf(offer.options);
    const n = Number(e.key);
    if (n >= 1 && n <= buttons.length) {
      const a = buttons[n - 1];
      if (a.type === ActionType.RIICHI) {
        this.ui.riichiMode = !this.ui.riichiMode;
        this.draw();
      } else void this.act(a);
      return;
    }
    const type = this.ui.riichiMode ? ActionType.RIICHI : ActionType.DISCARD;
    if (e.key === " ") {
      e.preventDefault();
      const pass = offer.options.find((a) => a.type === ActionType.PASS);
      const a = offer.claim ? pass : this.model.drawn ? discardFor(offer.options, type, this.model.drawn, true) : undefined;
      if (a) void this.act(a);
      return;
    }
    const i = tileKeys.indexOf(e.key);
    if (i < 0 || offer.claim) return;
    const t = i < this.model.hand.length ? this.model.hand[i] : i === this.model.hand.length ? this.model.drawn : "";
    const a = t ? discardFor(offer.options, type, t, i === this.model.hand.length) : undefined;
    if (a) void this.act(a);
  }
}

/** The table this tab shows, of whichever game. */
interface Page {
  stop(): void;
  key(e: KeyboardEvent): void;
}

let current: Page | undefined;

function play(s: Session) {
  current?.stop();
  window.clearInterval(lobbyTimer);
  current = s.game === "ddz" ? new DdzGame(s, lobby) : new Game(s);
}

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  current?.key(e);
});

const saved = loadSession();
if (saved) play(saved);
else lobby();
