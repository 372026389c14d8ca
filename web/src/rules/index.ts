// The rule sets the page knows, in the lobby's order. A table's rule set
// picks its descriptor; anything unknown is drawn as riichi, the API's
// default.

import { RuleSet } from "../../../clients/ts/src/gen/mahjong/authority/v1/table_service_pb.js";
import { classical } from "./classical.js";
import { mcr } from "./mcr.js";
import { riichi } from "./riichi.js";
import { sichuan } from "./sichuan.js";
import type { RuleSetDef } from "./types.js";

export const ruleSets: RuleSetDef[] = [riichi, sichuan, mcr, classical];

export function ruleSetOf(id: RuleSet | number | undefined): RuleSetDef {
  return ruleSets.find((r) => r.id === id) ?? riichi;
}

export function ruleSetByKey(key: string): RuleSetDef {
  return ruleSets.find((r) => r.key === key) ?? riichi;
}

export type { RuleSetDef } from "./types.js";
