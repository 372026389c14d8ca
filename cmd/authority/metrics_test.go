package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
)

// TestMetrics serves the authority with --data and --metrics in process,
// plays a whole east-only game of four bot clients over gRPC, and scrapes
// the metrics endpoint: every named series is there, with the values the
// game must have given it. pprof answers on the same listener.
func TestMetrics(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	mlis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	o, err := parse([]string{"--data", t.TempDir(), "--round-pause", "1ms", "--seat-rate", "10000", "--seat-burst", "10000",
		"--conn-rate", "10000", "--conn-burst", "10000"}, io.Discard)
	require.NoError(t, err)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(ctx, lis, mlis, zaptest.NewLogger(t), o) }()
	defer func() {
		stop()
		require.NoError(t, <-served)
	}()

	addr := lis.Addr().String()
	gctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	admin, err := client.Dial(addr)
	require.NoError(t, err)
	defer admin.Close()
	tb, _, err := admin.CreateTable(gctx, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seedOf(9),
		ClaimDwell: durationpb.New(time.Millisecond)})
	require.NoError(t, err)
	var wg sync.WaitGroup
	var runs [table.NumSeats]seatRun
	for s := range runs {
		c, err := client.Dial(addr)
		require.NoError(t, err)
		defer c.Close()
		seat, err := c.JoinTable(gctx, tb.GetTableId(), fmt.Sprint("bot", s), nil)
		require.NoError(t, err)
		wg.Go(func() { playBot(gctx, c.Follow(seat, client.Options{}), &runs[s]) })
	}
	wg.Wait()
	for s, r := range runs {
		require.True(t, r.ended, "seat %d did not see the end of the game: %v", s, r.err)
	}

	// The clients end on the game's last event; the table's last call
	// then marks the game over and stores its last snapshot. Scrape until
	// it did, and until a scrape falls between the store's commits (one
	// gathers the commits' two histograms one after the other). The
	// assertions below say what is missing after 10s.
	base := "http://" + mlis.Addr().String()
	var fams map[string]*dto.MetricFamily
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		fams = scrape(t, base+"/metrics")
		games, rounds, snaps := fams["authority_games_finished_total"], fams["authority_rounds_finished_total"], fams["authority_snapshot_bytes"]
		if games != nil && rounds != nil && snaps != nil && games.GetMetric()[0].GetCounter().GetValue() == 1 &&
			float64(snaps.GetMetric()[0].GetHistogram().GetSampleCount()) == rounds.GetMetric()[0].GetCounter().GetValue() &&
			sampleCount(fams["authority_store_commit_seconds"]) == sampleCount(fams["authority_store_commit_batch_size"]) {
			break
		}
	}
	value := func(name string, labels map[string]string) float64 {
		t.Helper()
		f, ok := fams[name]
		require.True(t, ok, "no series %s", name)
		for _, m := range f.GetMetric() {
			if hasLabels(m, labels) {
				switch {
				case m.GetCounter() != nil:
					return m.GetCounter().GetValue()
				case m.GetGauge() != nil:
					return m.GetGauge().GetValue()
				case m.GetHistogram() != nil:
					return float64(m.GetHistogram().GetSampleCount())
				}
			}
		}
		t.Fatalf("no series %s%v", name, labels)
		return 0
	}
	// The mahjong API's calls (Dou Dizhu's service has methods of the same names).
	const tables = "mahjong.authority.v1.TableService"
	acts := value("grpc_server_handled_total", map[string]string{"grpc_service": tables, "grpc_method": "Act", "grpc_code": "OK"})
	assert.Greater(t, acts, 20.0, "Act calls answered OK")
	assert.Equal(t, 4.0, value("grpc_server_handled_total", map[string]string{"grpc_service": tables, "grpc_method": "JoinTable", "grpc_code": "OK"}))
	assert.Greater(t, value("grpc_server_handling_seconds", map[string]string{"grpc_service": tables, "grpc_method": "Act"}), 20.0, "Act latencies observed")
	discards := value("authority_actions_total", map[string]string{"type": "discard", "by": "player", "result": "ok"})
	assert.Greater(t, discards, 20.0, "discards applied")
	assert.LessOrEqual(t, discards, acts, "discards are Act calls")
	assert.Greater(t, value("authority_actions_total", map[string]string{"type": "deal", "by": "system", "result": "ok"}), 3.0, "deals: an east-only game has 4 rounds or more")
	assert.Equal(t, 1.0, value("authority_games_finished_total", nil))
	rounds := value("authority_rounds_finished_total", nil)
	assert.GreaterOrEqual(t, rounds, 4.0)
	assert.Equal(t, rounds, value("authority_snapshot_bytes", nil), "a snapshot at every round's end")
	assert.Equal(t, 1.0, value("authority_tables", map[string]string{"rule_set": "riichi", "state": "finished"}))
	assert.Equal(t, 0.0, value("authority_tables", map[string]string{"rule_set": "riichi", "state": "playing"}))
	assert.Equal(t, 0.0, value("authority_seats", map[string]string{"rule_set": "riichi", "kind": "bot"}))
	judged := value("authority_judge_seconds", nil)
	assert.GreaterOrEqual(t, judged, discards, "every discard judged (riichi discards are not timed)")
	windows := value("authority_claim_windows_total", nil)
	assert.GreaterOrEqual(t, windows, discards, "every discard opens a claim window")
	assert.Equal(t, windows, value("authority_claim_dwell_seconds", nil), "every window held for its dwell")
	assert.Greater(t, value("authority_event_fanout_seconds", nil), discards, "events sent on the seats' streams")
	assert.GreaterOrEqual(t, value("authority_streams_open", map[string]string{"kind": "seat"}), 0.0)
	appends := value("authority_store_append_seconds", nil)
	assert.Greater(t, appends, discards, "every action appended")
	commits := value("authority_store_commit_seconds", nil)
	assert.Equal(t, commits, value("authority_store_commit_batch_size", nil))
	assert.LessOrEqual(t, commits, appends+10, "a commit carries one request or more (creates and snapshots are not appends)")
	assert.Equal(t, 5.0, value("authority_recoveries_total", nil), "one per host: riichi's, Sichuan's, MCR's, classical's and Dou Dizhu's")
	assert.Equal(t, 0.0, value("authority_recovered_tables_total", nil))
	assert.Equal(t, 0.0, value("authority_tables_set_aside_total", map[string]string{"reason": "panic"}))
	assert.Equal(t, 0.0, value("authority_rate_limited_total", map[string]string{"scope": "seat"}))
	assert.Greater(t, value("go_goroutines", nil), 10.0)
	assert.Greater(t, value("process_resident_memory_bytes", nil), 1e6)

	// Every series the Grafana dashboard reads is one the server serves.
	dash, err := os.ReadFile("../../deploy/grafana/authority.json")
	require.NoError(t, err)
	for _, name := range regexp.MustCompile(`\b(?:authority|grpc_server|go|process)_[a-z_]+`).FindAllString(string(dash), -1) {
		name = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")
		assert.Contains(t, fams, name, "the dashboard reads a series the server does not serve")
	}

	resp, err := http.Get(base + "/debug/pprof/goroutine?debug=1")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "goroutine profile")
}

func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return fams
}

func hasLabels(m *dto.Metric, want map[string]string) bool {
	n := 0
	for _, l := range m.GetLabel() {
		if v, ok := want[l.GetName()]; ok {
			if v != l.GetValue() {
				return false
			}
			n++
		}
	}
	return n == len(want)
}

// sampleCount is the observations of a histogram family's first series (0
// if there is none).
func sampleCount(f *dto.MetricFamily) uint64 {
	if f == nil || len(f.GetMetric()) == 0 {
		return 0
	}
	return f.GetMetric()[0].GetHistogram().GetSampleCount()
}
