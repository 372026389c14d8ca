// A rule set's descriptor: what the shared lobby, reducer and board ask of
// each rule set, so that neither has a branch per rule set. Each rule set
// has one file beside this one; index.ts lists them.

import type { RuleSet, Table, TableSettings } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import type { ActionPlain, ModelHooks, TableModel } from "../model.js";

/** What the board can ask the page to do. */
export interface Handlers {
  act(a: ActionPlain): void;
  toggleRiichi(): void;
  /** Marks or unmarks a tile of the hand (index in hand order, the drawn tile last). */
  select(i: number): void;
  leave(): void;
  dismiss(): void;
}

/** UI state that is the page's, not the table's. */
export interface UiState {
  riichiMode: boolean;
  busy: boolean;
  status: string; // "connected", "reconnecting ...", an error
  tableId: string;
  dismissed: string; // the resultAt whose result was closed
  /** Tiles of the hand marked for a choice (Sichuan's exchange), by index. */
  selected: number[];
}

/** How a tile of the viewer's hand is drawn and what a click on it does. */
export interface HandTile {
  onClick?: () => void;
  cls: string[];
  key?: string;
}

export interface RuleSetDef extends ModelHooks {
  id: RuleSet;
  /** The lobby's value for it and the CSS class of its board. */
  key: string;
  name: string;

  // ---- the lobby ----
  /** The form fields of its options (shown when it is chosen). */
  fields: string;
  /** The settings the form asks for: rule_set, rules and the options oneof. */
  settings(f: FormData): Partial<TableSettings>;
  /** A table's game in a few words, for the table list. */
  describe(t: Table): string;

  // ---- the board ----
  /** The centre's headline: the round or the hand. */
  roundLine(m: TableModel): string;
  /** The centre's other lines (riichi's dora, Sichuan's exchange direction). */
  centre(m: TableModel): HTMLElement[];
  /** Seat's wind, 1 east .. 4 north. */
  seatWind(m: TableModel, seat: number): number;
  /** Badges by the seat's name (void suit, fishing, won). */
  badges(m: TableModel, seat: number): HTMLElement[];
  /** Lines under the seat's pond and melds (flowers, winning tiles, kan money). */
  seatLines(m: TableModel, seat: number): HTMLElement[];
  /** The seat panel's extra classes ("left": a winner out of play). */
  seatClasses?(m: TableModel, seat: number): string[];
  /** Button names that differ from riichi's (the classical game's "Mah Jong", "Fishing"). */
  actionName?(a: ActionPlain): string | undefined;
  /**
   * A hand tile during a choice the rule set draws itself (offer.choice);
   * undefined: the shared discard rules.
   */
  handTile?(m: TableModel, ui: UiState, on: Handlers, i: number, tile: string): HandTile | undefined;
  /** Extra classes of a hand tile at any time (the void suit's tiles). */
  tileClasses?(m: TableModel, tile: string): string[];
  /** The action bar of a choice the rule set draws itself. */
  choice?(m: TableModel, ui: UiState, on: Handlers): HTMLElement[];
  /** The keyboard during such a choice; true if the key was used. */
  choiceKey?(m: TableModel, ui: UiState, on: Handlers, e: KeyboardEvent): boolean;
  /** The result of the hand that just ended (resultAt): wins, settlement, scores. */
  result(m: TableModel): HTMLElement[];
  /** What the final box shows above the ranking (the last hand's result). */
  finalExtra?(m: TableModel): HTMLElement[];
  /** A note in the centre that does not stop play (Sichuan's latest win). */
  notice?(m: TableModel): HTMLElement | undefined;
}
