package format

import "github.com/kgroups/kgroups/kafka/lag"

// ResetBy says which reset made by kgroups explains a REWIND: "reset by
// kgroups at 15:31, receipt PATH" (the local time of its receipt). The
// path is sanitized: a group's name is part of it.
func ResetBy(r *lag.Reset) string {
	return "reset by kgroups at " + r.Time.Local().Format("15:04") + ", receipt " + Sanitize(r.Receipt)
}
