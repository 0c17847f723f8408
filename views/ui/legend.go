package ui

// Legender is a screen whose cells need explaining beyond the keys: the
// help screen lists its Legend after the commands and the lag legend.
type Legender interface {
	Legend() []Section
}

// LegendOf is c's legend, or nil when it has none.
func LegendOf(c Component) []Section {
	if l, ok := c.(Legender); ok {
		return l.Legend()
	}
	return nil
}
