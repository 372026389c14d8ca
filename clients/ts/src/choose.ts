// The example's player: no strategy, just a legal answer to every offer.

import { create } from "@bufbuild/protobuf";
import { type Action, ActionSchema, ActionType } from "./gen/mahjong/authority/v1/game_pb.js";

/**
 * choose picks the answer to an offer: win when a win is offered, discard
 * the drawn tile in a turn (else the first discard offered, else the first
 * option), pass on a claim.
 */
export function choose(options: readonly Action[], claim: boolean): Action {
  const win = options.find((a) => a.type === ActionType.TSUMO || a.type === ActionType.RON);
  if (win) {
    return win;
  }
  if (claim) {
    return create(ActionSchema, { type: ActionType.PASS });
  }
  const discards = options.filter((a) => a.type === ActionType.DISCARD);
  return discards.find((a) => a.tsumogiri) ?? discards[0] ?? options[0] ?? create(ActionSchema, { type: ActionType.PASS });
}
