package scripttest

import (
	"bufio"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected output of the scripts")

// toy runs the commands of testdata/echo.txt.
func toy(*testing.T) func(*Block) []string {
	n := 0
	return func(b *Block) []string {
		defer func() { n++ }()
		switch b.Cmd {
		case "upper":
			var out []string
			for _, l := range b.Input {
				out = append(out, strings.ToUpper(l))
			}
			return out
		case "count":
			return []string{fmt.Sprint(n)}
		}
		return []string{"error: unknown command " + b.Cmd}
	}
}

func TestRun(t *testing.T) { Run(t, *update, toy) }

const script = `# a comment
upper
a
----
A

count
----
7

# after the last block
`

// TestPlay: a script reads into blocks and back to itself when every
// output is as expected; an output that differs is reported and written
// instead of the expected one; a block without "----" is refused.
func TestPlay(t *testing.T) {
	blocks, trailer, err := read(bufio.NewScanner(strings.NewReader(script)))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0].Cmd != "upper" || !slices.Equal(blocks[0].Input, []string{"a"}) ||
		!slices.Equal(blocks[0].Want, []string{"A"}) || !slices.Equal(blocks[1].Want, []string{"7"}) {
		t.Fatalf("read(script) = %+v", blocks)
	}
	if !slices.Equal(trailer, []string{"", "# after the last block"}) {
		t.Errorf("trailer = %q, want the blank line and the comment after the last block", trailer)
	}
	same := func(b *Block) []string { return b.Want }
	if text, diffs := play(blocks, trailer, same); text != script || diffs != nil {
		t.Errorf("play with the expected output = %q, %q; want the script unchanged, no differences", text, diffs)
	}
	text, diffs := play(blocks, trailer, toy(t))
	if want := strings.Replace(script, "7", "1", 1); text != want || len(diffs) != 1 || !strings.HasPrefix(diffs[0], "count:") {
		t.Errorf("play with count giving 1 = %q, %q; want the script with 1, one difference at count", text, diffs)
	}
	if _, _, err := read(bufio.NewScanner(strings.NewReader("upper\na\n"))); err == nil {
		t.Error("read accepted a block without ----")
	}
}
