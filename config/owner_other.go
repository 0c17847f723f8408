//go:build !unix

package config

import "io/fs"

// ownerOf says nothing where files have no Unix owner.
func ownerOf(fs.FileInfo) string { return "" }
