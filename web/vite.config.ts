// The build: src/ into dist/, which web.go embeds. The generated API code
// is clients/ts's (one generation, shared): its imports of
// @bufbuild/protobuf resolve to this project's copy, so the bundle holds
// one runtime whatever clients/ts has installed.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  resolve: { dedupe: ["@bufbuild/protobuf", "@connectrpc/connect"] },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // No source maps, no hashes that depend on anything but the sources.
    sourcemap: false,
  },
  server: { proxy: { "/mahjong.authority.v1.": "http://127.0.0.1:7400", "/doudizhu.authority.v1.": "http://127.0.0.1:7400" } },
});
