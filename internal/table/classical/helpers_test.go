package classical

import (
	"reflect"

	"github.com/mahjong-authority/authority/internal/tile"
)

func tileOf(k int) tile.Tile { return tile.Plain(tile.Kind(k)) }

// normal returns b with empty slices made nil, so that bodies compare
// equal across the codec.
func normal(b Body) Body {
	v := reflect.New(reflect.TypeOf(b)).Elem()
	v.Set(reflect.ValueOf(b))
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() == reflect.Slice && f.Len() == 0 {
			f.Set(reflect.Zero(f.Type()))
		}
		if f.Kind() == reflect.Array && f.Type().Elem().Kind() == reflect.Slice {
			for j := range f.Len() {
				if f.Index(j).Len() == 0 {
					f.Index(j).Set(reflect.Zero(f.Type().Elem()))
				}
			}
		}
	}
	return v.Interface().(Body)
}
