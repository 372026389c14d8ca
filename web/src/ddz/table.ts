// A Dou Dizhu table being played or watched: the stream (resumed by the
// shared loop of session.ts after a reload or a drop), the model, the
// selection of cards, the actions and the keyboard.

import { TableState } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { ActionType, Bidding, Phase, type Table } from "../../../clients/ts/src/gen/doudizhu/authority/v1/doudizhu_pb.js";
import { describe, durationMs, requestId, retrying } from "../api.js";
import { resume, saveSession, type Session } from "../session.js";
import { ddz } from "./api.js";
import { rankOfKey } from "./cards.js";
import { counts } from "./judge.js";
import { apply, emptyModel, fromView, type DdzModel, type SeatName } from "./model.js";
import { hints, reading, renderDdz, selection, timerText, type DdzUi, type TableInfo } from "./view.js";

const ms = (d: { seconds: bigint; nanos: number } | undefined, dflt: number) => durationMs(d) ?? dflt;

interface ActPlain {
  type: ActionType;
  bid?: number;
  cards?: string;
}

export class DdzGame {
  private model: DdzModel;
  private ui: DdzUi = { selected: [], hint: -1, busy: false, status: "connecting", dismissed: "" };
  private info: TableInfo;
  private names: SeatName[] = [];
  private table?: Table;
  private abort = new AbortController();
  private tick: number;
  private app = document.getElementById("app")!;

  constructor(
    private s: Session,
    private lobby: (message?: string) => void,
  ) {
    this.model = (s.model as DdzModel | undefined) ?? emptyModel(s.seat);
    this.info = { tableId: s.tableId, bidding: Bidding.POINTS, deals: 1, bombCap: 0, turnMs: 20000 };
    this.tick = window.setInterval(() => {
      const t = document.getElementById("timer");
      if (t) t.textContent = timerText(this.model);
    }, 250);
    this.draw();
    void resume(this.abort.signal, {
      readTable: async () => (await this.readTable())?.state === TableState.WAITING,
      waiting: () => {
        this.ui.status = "waiting";
        this.drawWaiting();
      },
      follow: (connected) => this.follow(connected),
      over: () => !!this.model.final,
      restart: () => (this.model = emptyModel(this.s.seat)),
      lost: (message) => {
        this.ui.status = message;
        this.draw();
      },
      gone: (message) => this.lobby(message),
    });
  }

  stop() {
    this.abort.abort();
    window.clearInterval(this.tick);
  }

  private draw() {
    if (!this.model.started && !this.table) return this.drawWaiting();
    renderDdz(this.app, this.model, this.ui, this.info, {
      toggle: (i) => {
        const at = this.ui.selected.indexOf(i);
        if (at >= 0) this.ui.selected.splice(at, 1);
        else this.ui.selected.push(i);
        this.draw();
      },
      select: (cards) => this.select(cards),
      bid: (n) => void this.act({ type: ActionType.BID, bid: n }),
      call: () => void this.act({ type: ActionType.CALL }),
      rob: () => void this.act({ type: ActionType.ROB }),
      pass: () => void this.act({ type: ActionType.PASS }),
      play: () => this.play(),
      hint: () => this.nextHint(),
      leave: () => void this.leave(),
      dismiss: () => {
        this.ui.dismissed = this.model.seq;
        this.draw();
      },
    });
  }

  private drawWaiting() {
    const root = document.createElement("main");
    root.className = "lobby";
    const card = document.createElement("section");
    card.className = "card";
    card.id = "waiting";
    const title = document.createElement("h2");
    title.textContent = `Dou Dizhu table ${this.s.tableId}`;
    const p = document.createElement("p");
    p.textContent = this.s.seat >= 0 ? "Waiting for the table to start. Give the id to the other players." : "Waiting for the table to start.";
    const seats = document.createElement("ul");
    for (const st of this.table?.seats ?? []) {
      const li = document.createElement("li");
      li.textContent = `seat ${st.seat}: ${st.taken ? st.name || "taken" : "free"}`;
      seats.append(li);
    }
    card.append(title, p, seats);
    if (this.s.seat >= 0) {
      const start = document.createElement("button");
      start.type = "button";
      start.className = "primary";
      start.textContent = "Start now (bots take the free seats)";
      start.addEventListener("click", () =>
        void ddz.startTable({ tableId: this.s.tableId, token: this.s.ownerToken ?? this.s.token }).catch((err) => (this.ui.status = describe(err))),
      );
      card.append(start);
    }
    const leave = document.createElement("button");
    leave.type = "button";
    leave.textContent = "Back to the lobby";
    leave.addEventListener("click", () => void this.leave());
    const status = document.createElement("p");
    status.className = "status";
    status.textContent = this.ui.status;
    card.append(leave, status);
    root.append(card);
    this.app.replaceChildren(root);
  }

  private async leave() {
    this.stop();
    if (this.s.seat >= 0 && !this.model.final) {
      // A bot plays the seat from now on.
      await ddz.leaveTable({ tableId: this.s.tableId, seatToken: this.s.token }).catch(() => undefined);
    }
    this.lobby();
  }

  private save() {
    this.s.model = this.model;
    saveSession(this.s);
  }

  private async readTable() {
    const res = await retrying(() => ddz.getTable({ tableId: this.s.tableId }, { signal: this.abort.signal }));
    const t = res.table;
    this.table = t;
    const st = t?.settings;
    this.info = {
      tableId: this.s.tableId,
      bidding: st?.bidding === Bidding.CALL_ROB ? Bidding.CALL_ROB : Bidding.POINTS,
      deals: st?.deals || 1,
      bombCap: st?.bombCap ?? 0,
      turnMs: ms(st?.turnTime, 20000),
    };
    this.names = [0, 1, 2].map((i) => ({ name: t?.seats[i]?.name ?? "", bot: t?.seats[i]?.bot ?? false }));
    this.model.names = this.model.names.map((n, i) => ({ name: n.name || this.names[i].name, bot: this.names[i].bot || n.bot }));
    return t;
  }

  private async follow(connected: () => void) {
    const signal = this.abort.signal;
    const after = BigInt(this.model.seq);
    if (this.s.seat < 0) {
      const stream = ddz.spectate({ tableId: this.s.tableId, afterSeq: after }, { signal });
      this.ui.status = "watching";
      this.draw();
      for await (const m of stream) {
        connected();
        if (m.event) this.onEvent(() => apply(this.model, m.event!, this.info.turnMs));
      }
      return;
    }
    const stream = ddz.streamEvents({ tableId: this.s.tableId, seatToken: this.s.token, afterSeq: after }, { signal });
    this.ui.status = "connected";
    this.draw();
    for await (const m of stream) {
      connected();
      if (m.item.case === "snapshot") {
        const snap = m.item.value;
        this.onEvent(() => fromView(snap.view!, snap.seq, this.names, this.info.turnMs, durationMs(snap.timeLeft)));
      } else if (m.item.case === "event") {
        const ev = m.item.value;
        this.onEvent(() => apply(this.model, ev, this.info.turnMs));
      }
    }
  }

  private onEvent(next: () => DdzModel) {
    const hand = this.model.hand;
    const before = this.model.offer;
    this.model = next();
    if (this.model.hand !== hand) this.ui.selected = [];
    if (this.model.offer !== before) this.ui.hint = -1;
    if (this.model.offer && !before) this.ui.busy = false;
    this.save();
    this.draw();
  }

  /** select selects exactly cards (a hint): the lowest cards of each rank in the hand. */
  private select(cards: string) {
    const want = counts(cards);
    const sel: number[] = [];
    [...this.model.hand].forEach((c, i) => {
      const r = "3456789TJQKA2XD".indexOf(c);
      if (want[r] > 0) {
        want[r]--;
        sel.push(i);
      }
    });
    this.ui.selected = sel;
    this.draw();
  }

  private nextHint() {
    const list = hints(this.model);
    if (!list.length) return;
    this.ui.hint = (this.ui.hint + 1) % list.length;
    this.select(list[this.ui.hint].cards);
  }

  private play() {
    const sel = selection(this.model, this.ui);
    if (!reading(sel, this.model.offer).play) return;
    void this.act({ type: ActionType.PLAY, cards: sel });
  }

  private async act(a: ActPlain) {
    if (this.ui.busy || !this.model.offer) return;
    this.ui.busy = true;
    this.draw();
    const id = requestId();
    const seqBefore = this.model.seq;
    try {
      await retrying(() =>
        ddz.act({
          tableId: this.s.tableId,
          seatToken: this.s.token,
          lastSeq: BigInt(this.model.seq),
          requestId: id,
          action: { type: a.type, bid: a.bid ?? 0, cards: a.cards ?? "" },
        }),
      );
      // Answered: the events that follow show it. An event that came
      // meanwhile (the next offer, say) stays.
      if (this.model.seq === seqBefore) this.model.offer = undefined;
      this.ui.selected = [];
      this.ui.status = "connected";
    } catch (err) {
      this.ui.status = describe(err);
    }
    this.ui.busy = false;
    this.save();
    this.draw();
  }

  /** key plays the keyboard: a rank's key selects one more card of it, Enter plays, P passes, H hints; 1-3, C, R bid. */
  key(e: KeyboardEvent) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const m = this.model;
    if (e.key === "Escape") {
      if (this.ui.selected.length) this.ui.selected = [];
      else this.ui.dismissed = m.seq;
      this.draw();
      return;
    }
    const o = m.offer;
    if (!o || this.ui.busy) return;
    const k = e.key.toLowerCase();
    if (m.phase === Phase.BIDDING) {
      const n = Number(k);
      if (o.bids.includes(n)) void this.act({ type: ActionType.BID, bid: n });
      else if (k === "c" && o.call) void this.act({ type: ActionType.CALL });
      else if (k === "r" && o.rob) void this.act({ type: ActionType.ROB });
      else if (k === "p" && o.pass) void this.act({ type: ActionType.PASS });
      return;
    }
    if (m.phase !== Phase.PLAYING) return;
    if (e.key === "Enter") {
      e.preventDefault();
      this.play();
      return;
    }
    if (k === "p" && o.pass) return void this.act({ type: ActionType.PASS });
    if (k === "h") return this.nextHint();
    const rank = rankOfKey(e.key);
    if (!rank) return;
    // One more card of that rank; once all are selected, none.
    const of = [...m.hand].flatMap((c, i) => (c === rank ? [i] : []));
    if (!of.length) return;
    const free = of.find((i) => !this.ui.selected.includes(i));
    if (free !== undefined) this.ui.selected.push(free);
    else this.ui.selected = this.ui.selected.filter((i) => !of.includes(i));
    this.draw();
  }
}
