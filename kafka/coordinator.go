package kafka

// DefaultOffsetsTopicPartitions is offsets.topic.num.partitions' default,
// used when __consumer_offsets is not visible in metadata.
const DefaultOffsetsTopicPartitions = 50

// JavaHashCode is Java's String.hashCode: the sum of s[i]*31^(n-1-i) over the
// string's UTF-16 code units, wrapping at 32 bits. Kafka uses it to place a
// group on a __consumer_offsets partition.
func JavaHashCode(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			// A supplementary character is two UTF-16 code units.
			r -= 0x10000
			h = 31*h + (0xD800 + r>>10)
			h = 31*h + (0xDC00 + r&0x3FF)
			continue
		}
		h = 31*h + r
	}
	return h
}

// OffsetsPartition is the __consumer_offsets partition that holds a group's
// commits and metadata: abs(hashCode(group)) % n, where Kafka's abs maps
// MinInt32 to 0. The leader of that partition is the group's coordinator.
func OffsetsPartition(group string, n int32) int32 {
	if n <= 0 {
		return -1
	}
	h := JavaHashCode(group)
	if h == -1<<31 {
		h = 0
	} else if h < 0 {
		h = -h
	}
	return h % n
}
