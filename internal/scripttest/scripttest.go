// Package scripttest runs scenario scripts, in the style of etcd raft's
// interaction tests: files of commands, each followed by the output it
// must give, checked by a test and rewritten by it on request. The rules
// engines' tests (riichi, Sichuan, MCR, Dou Dizhu) share it; each gives
// its own commands.
//
// A script is a sequence of blocks. A block is a command line, optional
// input lines, "----", and the expected output up to a blank line.
// Comments (lines starting with "#") and blank lines may stand between
// blocks and after the last. It is a package of its own, not a test file,
// because several packages' tests use it; it is imported by tests only.
package scripttest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Block is one command of a script.
type Block struct {
	Cmd   string   // the command line
	Input []string // the lines between the command and "----"
	Want  []string // the expected output

	header []string // comments and blank lines before the command
}

// Run runs every script of testdata/*.txt as a subtest named after its
// file. For each script it calls start once (a new harness, say) and the
// function start returns with each block in order; that function returns
// the block's output lines. Output that differs from a block's Want is an
// error. With update (a package's -update flag), Run rewrites each script
// with the output it got instead, for review as a diff.
func Run(t *testing.T, update bool, start func(t *testing.T) func(*Block) []string) {
	t.Helper()
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			blocks, trailer := parse(t, file)
			text, diffs := play(blocks, trailer, start(t))
			if !update {
				for _, d := range diffs {
					t.Errorf("%s: %s", file, d)
				}
			} else {
				if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// play runs the blocks of a script with run: the script as it would be
// with the output got (trailing blank lines dropped), and where that
// output differs from the blocks' Want.
func play(blocks []Block, trailer []string, run func(*Block) []string) (string, []string) {
	var out strings.Builder
	var diffs []string
	for i := range blocks {
		b := &blocks[i]
		got := run(b)
		for _, l := range b.header {
			out.WriteString(l + "\n")
		}
		out.WriteString(b.Cmd + "\n")
		for _, l := range b.Input {
			out.WriteString(l + "\n")
		}
		out.WriteString("----\n")
		for _, l := range got {
			out.WriteString(l + "\n")
		}
		if !slices.Equal(got, b.Want) {
			diffs = append(diffs, fmt.Sprintf("%s:\ngot:\n%s\nwant:\n%s", b.Cmd, strings.Join(got, "\n"), strings.Join(b.Want, "\n")))
		}
	}
	for _, l := range trailer {
		out.WriteString(l + "\n")
	}
	return strings.TrimRight(out.String(), "\n") + "\n", diffs
}

// parse reads a script: its blocks, and the comments and blank lines
// after the last.
func parse(t *testing.T, file string) ([]Block, []string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	blocks, trailer, err := read(bufio.NewScanner(f))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return blocks, trailer
}

func read(sc *bufio.Scanner) ([]Block, []string, error) {
	var blocks []Block
	var cur *Block
	var header []string
	state := 0 // 0: between blocks, 1: input, 2: expected output
	for sc.Scan() {
		line := sc.Text()
		switch state {
		case 0:
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				header = append(header, line)
				continue
			}
			blocks = append(blocks, Block{Cmd: line, header: header})
			header = nil
			cur = &blocks[len(blocks)-1]
			state = 1
		case 1:
			if line == "----" {
				state = 2
				continue
			}
			cur.Input = append(cur.Input, line)
		case 2:
			if strings.TrimSpace(line) == "" {
				state = 0
				header = append(header, line)
				continue
			}
			cur.Want = append(cur.Want, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if state == 1 {
		return nil, nil, fmt.Errorf("block %q has no ----", cur.Cmd)
	}
	return blocks, header, nil
}
