package reset

import (
	"errors"
	"fmt"
	"strings"
)

// maxListedErrors bounds every list of errors kgroups prints: the first 20
// are given, then "and N more". A file of a million bad rows gives 21 lines,
// not a million.
const maxListedErrors = 20

// errList collects errors, keeping only the first maxListedErrors and
// counting the rest, so that it never holds more than that many.
type errList struct {
	errs []error
	more int
}

func (l *errList) add(err error) {
	if len(l.errs) < maxListedErrors {
		l.errs = append(l.errs, err)
		return
	}
	l.more++
}

// empty reports whether nothing was added.
func (l *errList) empty() bool { return len(l.errs) == 0 }

// err joins the errors kept, one a line, and ends with "and N more" when
// some were only counted; nil when nothing was added.
func (l *errList) err() error {
	if l.empty() {
		return nil
	}
	errs := l.errs[:len(l.errs):len(l.errs)]
	if l.more > 0 {
		errs = append(errs, fmt.Errorf("and %d more", l.more))
	}
	return errors.Join(errs...)
}

// listed joins names with ", ", giving the first maxListedErrors and then
// "and N more".
func listed(names []string) string {
	if len(names) <= maxListedErrors {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxListedErrors], ", ") + fmt.Sprintf(" and %d more", len(names)-maxListedErrors)
}
