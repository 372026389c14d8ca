package judge

import "testing"

func TestLimitBase(t *testing.T) {
	tests := []struct {
		han, fu int
		rules   *Rules
		limit   Limit
		base    int
	}{
		{1, 30, &Default, LimitNone, 240}, // 30 x 2^3
		{1, 40, &Default, LimitNone, 320},
		{2, 25, &Default, LimitNone, 400},
		{3, 30, &Default, LimitNone, 960},
		{4, 30, &Default, LimitNone, 1920},
		{4, 30, &kiriage, Mangan, 2000},
		{3, 60, &Default, LimitNone, 1920},
		{3, 60, &kiriage, Mangan, 2000},
		{3, 50, &kiriage, LimitNone, 1600},
		{4, 25, &kiriage, LimitNone, 1600},
		{4, 40, &Default, Mangan, 2000}, // 2560, capped
		{3, 70, &Default, Mangan, 2000}, // 2240, capped
		{2, 110, &Default, LimitNone, 1760},
		{1, 110, &Default, LimitNone, 880},
		{5, 30, &Default, Mangan, 2000},
		{6, 30, &Default, Haneman, 3000},
		{7, 30, &Default, Haneman, 3000},
		{8, 30, &Default, Baiman, 4000},
		{10, 30, &Default, Baiman, 4000},
		{11, 30, &Default, Sanbaiman, 6000},
		{12, 30, &Default, Sanbaiman, 6000},
		{13, 30, &Default, KazoeYakuman, 8000},
		{20, 30, &Default, KazoeYakuman, 8000},
		{13, 30, &noKazoe, Sanbaiman, 6000},
		{0, 30, &Default, LimitNone, 0},
	}
	for _, tt := range tests {
		limit, base := limitBase(tt.han, tt.fu, tt.rules)
		if limit != tt.limit || base != tt.base {
			t.Errorf("limitBase(%d, %d, %s) = %v, %d, want %v, %d", tt.han, tt.fu, tt.rules.Name, limit, base, tt.limit, tt.base)
		}
	}
}

func TestPay(t *testing.T) {
	tests := []struct {
		base          int
		dealer, tsumo bool
		honba         int
		want          Payment
		total         int
	}{
		// 1 han 30 fu: 960 -> 1000; dealer 1440 -> 1500; tsumo 240 -> 300
		// and 480 -> 500; dealer tsumo 480 -> 500 each.
		{240, false, false, 0, Payment{Ron: 1000}, 1000},
		{240, true, false, 0, Payment{Ron: 1500}, 1500},
		{240, false, true, 0, Payment{TsumoDealer: 500, TsumoNonDealer: 300}, 1100},
		{240, true, true, 0, Payment{TsumoNonDealer: 500}, 1500},
		// 1 han 40 fu: 1280 -> 1300; 1920 -> 2000; 320 -> 400, 640 -> 700.
		{320, false, false, 0, Payment{Ron: 1300}, 1300},
		{320, true, false, 0, Payment{Ron: 2000}, 2000},
		{320, false, true, 0, Payment{TsumoDealer: 700, TsumoNonDealer: 400}, 1500},
		{320, true, true, 0, Payment{TsumoNonDealer: 700}, 2100},
		// 2 han 25 fu (chiitoitsu): 400 x 4 = 1600, x 6 = 2400.
		{400, false, false, 0, Payment{Ron: 1600}, 1600},
		{400, true, false, 0, Payment{Ron: 2400}, 2400},
		{400, false, true, 0, Payment{TsumoDealer: 800, TsumoNonDealer: 400}, 1600},
		// 3 han 30 fu: 3840 -> 3900; 5760 -> 5800; 1000 and 2000.
		{960, false, false, 0, Payment{Ron: 3900}, 3900},
		{960, true, false, 0, Payment{Ron: 5800}, 5800},
		{960, false, true, 0, Payment{TsumoDealer: 2000, TsumoNonDealer: 1000}, 4000},
		{960, true, true, 0, Payment{TsumoNonDealer: 2000}, 6000},
		// 4 han 30 fu: 7680 -> 7700; 11520 -> 11600; 1920 -> 2000, 3840 -> 3900.
		{1920, false, false, 0, Payment{Ron: 7700}, 7700},
		{1920, true, false, 0, Payment{Ron: 11600}, 11600},
		{1920, false, true, 0, Payment{TsumoDealer: 3900, TsumoNonDealer: 2000}, 7900},
		{1920, true, true, 0, Payment{TsumoNonDealer: 3900}, 11700},
		// The limits.
		{2000, false, false, 0, Payment{Ron: 8000}, 8000},
		{2000, true, false, 0, Payment{Ron: 12000}, 12000},
		{2000, false, true, 0, Payment{TsumoDealer: 4000, TsumoNonDealer: 2000}, 8000},
		{2000, true, true, 0, Payment{TsumoNonDealer: 4000}, 12000},
		{3000, false, false, 0, Payment{Ron: 12000}, 12000},
		{3000, true, true, 0, Payment{TsumoNonDealer: 6000}, 18000},
		{4000, false, true, 0, Payment{TsumoDealer: 8000, TsumoNonDealer: 4000}, 16000},
		{4000, true, false, 0, Payment{Ron: 24000}, 24000},
		{6000, false, false, 0, Payment{Ron: 24000}, 24000},
		{6000, true, false, 0, Payment{Ron: 36000}, 36000},
		{8000, false, false, 0, Payment{Ron: 32000}, 32000},
		{8000, true, false, 0, Payment{Ron: 48000}, 48000},
		{8000, false, true, 0, Payment{TsumoDealer: 16000, TsumoNonDealer: 8000}, 32000},
		{8000, true, true, 0, Payment{TsumoNonDealer: 16000}, 48000},
		{16000, false, false, 0, Payment{Ron: 64000}, 64000},
		{16000, true, true, 0, Payment{TsumoNonDealer: 32000}, 96000},
		// Honba: 300 on a ron, 100 on each tsumo payment.
		{240, false, false, 1, Payment{Ron: 1300}, 1300},
		{240, true, false, 3, Payment{Ron: 2400}, 2400},
		{240, false, true, 2, Payment{TsumoDealer: 700, TsumoNonDealer: 500}, 1700},
		{240, true, true, 2, Payment{TsumoNonDealer: 700}, 2100},
		{8000, false, false, 5, Payment{Ron: 33500}, 33500},
	}
	for _, tt := range tests {
		got := Pay(tt.base, tt.dealer, tt.tsumo, tt.honba)
		if got != tt.want {
			t.Errorf("Pay(%d, dealer %v, tsumo %v, honba %d) = %+v, want %+v", tt.base, tt.dealer, tt.tsumo, tt.honba, got, tt.want)
		}
		if r := got.Received(tt.dealer); r != tt.total {
			t.Errorf("Pay(%d, dealer %v, tsumo %v, honba %d).Received = %d, want %d", tt.base, tt.dealer, tt.tsumo, tt.honba, r, tt.total)
		}
	}
}
