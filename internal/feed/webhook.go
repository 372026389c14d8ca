package feed

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/cenkalti/backoff/v4"
	"go.uber.org/zap"
	"google.golang.org/protobuf/encoding/protojson"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// Webhooks: the feed's events as HTTP POSTs, for a room service that
// prefers them to the stream. Each event is one POST of its JSON
// (protojson, proto field names) with the headers
//
//	X-Authority-Cursor:    the event's cursor
//	X-Authority-Signature: sha256=<hex HMAC-SHA-256 of the body with the secret>
//
// in cursor order, one at a time; any 2xx answer delivers it, anything
// else is retried with exponential backoff (1s doubling to 1m, for ever).
// The cursor of the last event delivered is kept (in the feed's file when
// it has one), so a restart goes on after it: delivery is at least once,
// and a receiver drops a cursor it has seen.

// Webhook is where and how Deliver posts.
type Webhook struct {
	URL    string
	Secret []byte // the HMAC key; the receiver holds the same
	Client *http.Client
	Log    *zap.Logger
	// Backoff, when set, replaces the default retry policy (tests).
	Backoff func() backoff.BackOff
}

// Sign is the signature header's value of a body.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

func (f *Feed) setDelivered(url string, c uint64) error {
	f.open.RLock()
	defer f.open.RUnlock()
	if f.isClosed() {
		return ErrClosed
	}
	return f.log.SetDelivered(url, c)
}

// Deliver posts every event after the last one delivered to w.URL, then
// each new one, until ctx ends or the feed closes.
func (f *Feed) Deliver(ctx context.Context, w Webhook) error {
	if w.Client == nil {
		w.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if w.Log == nil {
		w.Log = zap.NewNop()
	}
	after, err := f.log.Delivered(w.URL)
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	return f.Watch(ctx, after, func(e *pb.TableEvent) error {
		body, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(e)
		if err != nil {
			return err
		}
		b := backoff.BackOff(&backoff.ExponentialBackOff{
			InitialInterval: time.Second, RandomizationFactor: 0.2, Multiplier: 2,
			MaxInterval: time.Minute, Stop: backoff.Stop, Clock: backoff.SystemClock,
		})
		if w.Backoff != nil {
			b = w.Backoff()
		}
		b.Reset()
		err = backoff.RetryNotify(func() error { return w.post(ctx, e.GetCursor(), body) }, backoff.WithContext(b, ctx),
			func(err error, wait time.Duration) {
				w.Log.Warn("webhook refused; retrying", zap.Uint64("cursor", e.GetCursor()), zap.Duration("in", wait), zap.Error(err))
			})
		if err != nil {
			return err
		}
		return f.setDelivered(w.URL, e.GetCursor())
	})
}

func (w Webhook) post(ctx context.Context, cursor uint64, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return backoff.Permanent(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Authority-Cursor", strconv.FormatUint(cursor, 10))
	req.Header.Set("X-Authority-Signature", Sign(w.Secret, body))
	resp, err := w.Client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16)) //nolint:errcheck // draining for reuse only
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("webhook answered %s", resp.Status)
	}
	return nil
}
