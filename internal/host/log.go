package host

import (
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// tableLog is the host's logger for one table: each entry carries the
// table's id. A child logger a table (zap's With) held about 1.5 kB of
// encoder and buffer for the table's life, about 15 MB of live heap at 10,000
// tables, to log a few lines a game; the field is added when a line is
// written instead.
type tableLog struct {
	l  *zap.Logger // the host's, skipping tableLogSkip frames: the caller is the table's code
	id string
}

// tableLogSkip is the frames of tableLog between a table's code and zap:
// its method (Info, ...) and write.
const tableLogSkip = 2

func (g tableLog) Debug(msg string, fields ...zap.Field) { g.write(zapcore.DebugLevel, msg, fields) }
func (g tableLog) Info(msg string, fields ...zap.Field)  { g.write(zapcore.InfoLevel, msg, fields) }
func (g tableLog) Warn(msg string, fields ...zap.Field)  { g.write(zapcore.WarnLevel, msg, fields) }
func (g tableLog) Error(msg string, fields ...zap.Field) { g.write(zapcore.ErrorLevel, msg, fields) }

func (g tableLog) write(lvl zapcore.Level, msg string, fields []zap.Field) {
	if ce := g.l.Check(lvl, msg); ce != nil {
		ce.Write(append([]zap.Field{zap.String("table", g.id)}, fields...)...)
	}
}
