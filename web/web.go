// Package web holds the browser client's built page (dist/, made by
// `npm run build` from src/ with Vite; CI rebuilds it and checks that the
// committed files match), embedded so that the authority serves it at /.
package web

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed dist
var dist embed.FS

// Page serves the built client: index.html at / and its assets.
func Page() http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded: it is there
	}
	return http.FileServerFS(sub)
}
