package metrics

import (
	"math"
	"slices"
)

// Page writes the groups' families of successive polls in one format,
// keeping the bytes it wrote for each group: a group whose samples (label
// values and values) in a family are the same as at the previous Append
// has its lines in that family copied from the previous page rather than
// written again. The page is byte for byte what AppendText (or
// AppendOpenMetrics) writes for the same families
// (TestPageMatchesFullRendering); only its cost depends on what changed.
// At 10,000 groups at rest a poll changes the lines of the few groups
// whose lag or time lag moved.
//
// A Page is used by one goroutine. It keeps the last families and bytes
// it wrote, and never writes into either, so what it returned stays valid
// for a reader after the next Append.
type Page struct {
	// OpenMetrics writes OpenMetrics 1.0 (without "# EOF"), as
	// AppendOpenMetrics does; the text format otherwise.
	OpenMetrics bool

	prev *Families
	buf  []byte
	// spans[f][k] is where group prev.names[k]'s lines of family f
	// start in buf; one more entry closes the last group's.
	spans [][]int32
	// spare is the spans of the Append before the last, written again
	// by the next.
	spare [][]int32
	// written and copied count the (group, family) pairs the last Append
	// wrote anew and copied.
	written, copied int
}

// Append appends fs's groups to dst, copying from the previous Append
// each group's lines that did not change, and returns it. dst must not
// be a buffer Append returned before.
func (p *Page) Append(dst []byte, fs *Families) []byte {
	om := p.OpenMetrics
	start := len(dst)
	spans := p.spare
	if len(spans) != len(fs.fams) {
		spans = make([][]int32, len(fs.fams))
	}
	p.written, p.copied = 0, 0
	for fi, f := range fs.fams {
		old := spans[fi]
		spans[fi] = nil
		if f.len() == 0 {
			continue
		}
		dst = appendHeader(dst, f, om)
		var pf *family
		if p.prev != nil && fi < len(p.prev.fams) && p.prev.fams[fi].name == f.name && p.spans[fi] != nil {
			pf = p.prev.fams[fi]
		}
		span := old[:0]
		if cap(span) < len(fs.names)+1 {
			span = make([]int32, 0, len(fs.names)+1)
		}
		j := 0 // the walk through the previous poll's groups, in name order
		for k, name := range fs.names {
			span = append(span, int32(len(dst)-start))
			lo, hi := int(fs.starts[fi][k]), int(fs.starts[fi][k+1])
			if lo == hi {
				continue // no line of this group in this family
			}
			if pf != nil {
				for j < len(p.prev.names) && p.prev.names[j] < name {
					j++
				}
				if j < len(p.prev.names) && p.prev.names[j] == name {
					plo, phi := int(p.prev.starts[fi][j]), int(p.prev.starts[fi][j+1])
					if sameSamples(f, lo, hi, pf, plo, phi) {
						dst = append(dst, p.buf[p.spans[fi][j]:p.spans[fi][j+1]]...)
						p.copied++
						continue
					}
				}
			}
			dst = appendSamples(dst, f, lo, hi, om)
			p.written++
		}
		// Samples past the last group's (none today) are written.
		dst = appendSamples(dst, f, int(fs.starts[fi][len(fs.names)]), f.len(), om)
		spans[fi] = append(span, int32(len(dst)-start))
	}
	p.prev, p.buf, p.spans, p.spare = fs, dst[start:len(dst):len(dst)], spans, p.spans
	return dst
}

// Unchanged reports whether Append(dst, fs) would append exactly the bytes
// the previous Append did: the same families, each with the same samples
// (label values and values, bit for bit) in the same order. Then a caller
// that still has those bytes can serve them again instead of writing
// the page; the Page is left as it is, comparing the next families with
// the ones before (equal to fs). A Page that has written nothing is
// never unchanged.
func (p *Page) Unchanged(fs *Families) bool {
	if p.prev == nil || len(p.prev.fams) != len(fs.fams) {
		return false
	}
	for fi, f := range fs.fams {
		pf := p.prev.fams[fi]
		if f.name != pf.name || f.help != pf.help || f.typ != pf.typ || !slices.Equal(f.labels, pf.labels) ||
			!sameSamples(f, 0, f.len(), pf, 0, pf.len()) {
			return false
		}
	}
	return true
}

// Counts are the (group, family) pairs the last Append wrote anew and
// copied from the page before.
func (p *Page) Counts() (written, copied int) { return p.written, p.copied }

// sameSamples reports whether samples [lo,hi) of f and [plo,phi) of pf
// have the same label values and the same values, bit for bit (a NaN is
// the same NaN).
func sameSamples(f *family, lo, hi int, pf *family, plo, phi int) bool {
	if hi-lo != phi-plo || len(f.labels) != len(pf.labels) {
		return false
	}
	k := len(f.labels)
	for i := range hi - lo {
		if math.Float64bits(f.samples[lo+i]) != math.Float64bits(pf.samples[plo+i]) {
			return false
		}
		if f.exact[lo+i] != pf.exact[plo+i] {
			return false
		}
	}
	return slices.Equal(f.vals[lo*k:hi*k], pf.vals[plo*k:phi*k])
}
