// Dou Dizhu's service from the page: the same Connect transport as the
// mahjong tables' (binary, the page's own origin).

import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { DoudizhuService } from "../../../clients/ts/src/gen/doudizhu/authority/v1/doudizhu_pb.js";

export type Ddz = Client<typeof DoudizhuService>;

export const ddz: Ddz = createClient(DoudizhuService, createConnectTransport({ baseUrl: location.origin, useBinaryFormat: true }));
