package tui

import "testing"

func TestBackgroundAnswers(t *testing.T) {
	for _, tc := range []struct {
		answer string
		dark   bool
		ok     bool
	}{
		{"\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[1;1R", true, true},
		{"\x1b]11;rgb:ffff/ffff/ffff\x07\x1b[12;40R", false, true},
		{"\x1b]11;rgb:fd/f6/e3\x1b\\\x1b[1;1R", false, true}, // solarized light
		{"\x1b]11;rgb:2828/2c2c/3434\x1b\\\x1b[1;1R", true, true},
		{"\x1b[1;1R", true, false},                           // OSC 11 not supported: only the DSR answer
		{"\x1b]11;rgb:zz/00/00\x1b\\\x1b[1;1R", true, false}, // not hex
		{"\x1b]11;rgb:00000/0/0\x07\x1b[1;1R", true, false},  // five digits
	} {
		dark, err := backgroundDark([]byte(tc.answer))
		if dark != tc.dark || (err == nil) != tc.ok {
			t.Errorf("%q: dark %v err %v, want %v ok %v", tc.answer, dark, err, tc.dark, tc.ok)
		}
	}
	for v, dark := range map[string]bool{"15;0": true, "0;15": false, "15;default;0": true, "0;7": false, "0;8": true, "x": true} {
		if colorFGBGDark(v) != dark {
			t.Errorf("COLORFGBG=%q: dark %v", v, !dark)
		}
	}
}
