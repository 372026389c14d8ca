package classical

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocExamples scores every worked example of the tables of
// docs/rules/classical-scoring.md - a row whose code span holds a hand and
// a win - and checks the row's "points / doubles" and score columns.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/rules/classical-scoring.md")
	if err != nil {
		t.Fatal(err)
	}
	span := regexp.MustCompile("`([^`]*\\\\\\|[^`]*)`")
	n := 0
	for _, row := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(row, "|") {
			continue
		}
		m := span.FindStringSubmatch(row)
		if m == nil {
			continue
		}
		example := strings.ReplaceAll(m[1], `\|`, "|")
		cells := strings.Split(strings.ReplaceAll(row, `\|`, "/"), "|")
		cells = cells[1 : len(cells)-1]
		var base, doubles, score int
		if _, err := fmt.Sscanf(strings.TrimSpace(cells[len(cells)-2]), "%d / %d", &base, &doubles); err != nil {
			t.Errorf("row %q: points / doubles: %v", row, err)
			continue
		}
		if _, err := fmt.Sscan(strings.TrimSpace(cells[len(cells)-1]), &score); err != nil {
			t.Errorf("row %q: score: %v", row, err)
			continue
		}
		h, win, s, r := mustLine(t, example)
		res := Score(&h, win, &s, &r)
		if !res.Win || res.Base != base || res.Doubles != doubles || res.Score != score {
			t.Errorf("%s: %d / %d, score %d (win %v); the doc says %d / %d, %d", example, res.Base, res.Doubles, res.Score, res.Win, base, doubles, score)
		}
		n++
	}
	if n < 30 {
		t.Errorf("checked %d examples of the doc, want every line's (30 or more)", n)
	}
}
