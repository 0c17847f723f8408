package render

import (
	"io"

	"github.com/kgroups/kgroups/kafka"
)

// jsonMissing is a read the brokers cannot answer, in a JSON document's
// "notes": the feature, the request and the first Kafka release that
// answers it, why it is missing and the note's words.
type jsonMissing struct {
	Feature    string `json:"feature"`
	API        string `json:"api"`
	MinVersion int16  `json:"minVersion"`
	MinKafka   string `json:"minKafka"`
	Reason     string `json:"reason"`
	Code       string `json:"code,omitempty"`
	Message    string `json:"message"`
}

func missingJSON(ms []kafka.Missing) []jsonMissing {
	if len(ms) == 0 {
		return nil
	}
	out := make([]jsonMissing, len(ms))
	for i, m := range ms {
		out[i] = jsonMissing{
			Feature: m.Feature.ID, API: m.Feature.API(), MinVersion: m.Feature.Version,
			MinKafka: m.Feature.Kafka(), Reason: string(m.Reason), Code: m.Code, Message: m.Text(),
		}
	}
	return out
}

// MissingNotes writes one line on w for each read the brokers cannot
// answer: "note: transactions not checked: the brokers are older than
// Kafka 3.0 (ListTransactions)".
func MissingNotes(w io.Writer, ms []kafka.Missing) error {
	for _, m := range ms {
		if err := Printf(w, "note: %s", m.Text()); err != nil {
			return err
		}
	}
	return nil
}
