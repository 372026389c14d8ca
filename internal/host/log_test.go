package host

import (
	"path/filepath"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestTableLog: a table's lines carry its id first, keep their own
// fields, name the table's code as their caller, and honour the level.
func TestTableLog(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	g := tableLog{zap.New(core, zap.AddCaller()).WithOptions(zap.AddCallerSkip(tableLogSkip)), "t1"}
	g.Debug("hidden")
	g.Info("seat joined", zap.Int("seat", 2))
	g.Warn("w")
	g.Error("e", zap.String("x", "y"))
	got := logs.All()
	if len(got) != 3 {
		t.Fatalf("%d lines logged, want 3 (Debug is below the level): %v", len(got), got)
	}
	for _, e := range got {
		if len(e.Context) == 0 || e.Context[0].Key != "table" || e.Context[0].String != "t1" {
			t.Errorf("%q: fields %v, want table=t1 first", e.Message, e.Context)
		}
		if file := filepath.Base(e.Caller.File); file != "log_test.go" {
			t.Errorf("%q: caller %s, want this file", e.Message, e.Caller)
		}
	}
	if f := got[0].ContextMap(); f["seat"] != int64(2) {
		t.Errorf("seat joined: fields %v, want seat=2", f)
	}
	if got[1].Level != zapcore.WarnLevel || got[2].Level != zapcore.ErrorLevel {
		t.Errorf("levels %v, %v, want warn, error", got[1].Level, got[2].Level)
	}
}
