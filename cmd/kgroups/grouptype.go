package main

import (
	"context"
	"fmt"

	"github.com/kgroups/kgroups/kafka"
	kreset "github.com/kgroups/kgroups/kafka/reset"
)

// shareGroupError says that name is a share group when a command that works
// only on consumer groups (rebalance, simulate) does not find it among them. It returns nil when the group is not a share group (or
// its type cannot be read: the caller's own not-found error stands).
func shareGroupError(ctx context.Context, cl *kafka.Client, name string) error {
	typ, found, err := kreset.GroupTypeOf(ctx, cl, name)
	if err != nil || !found || typ != kafka.TypeShare {
		return nil
	}
	return fmt.Errorf("group %q is a share group: rebalance and simulate work on consumer groups (classic or consumer type) only, since a share group's members share its partitions and an admin cannot remove them. Nothing was sent. For share groups kgroups offers reset, delete-offsets and delete", name)
}
