package render

import (
	"io"

	"github.com/kgroups/kgroups/kafka"
)

// DocumentJSON writes the describe document the way JSONWith wrote it
// before it streamed: the whole jsonDocument through EncodeJSON.
func DocumentJSON(w io.Writer, groups []*kafka.Group, opts JSONOptions) error {
	return EncodeJSON(w, documentOf(groups, opts))
}
