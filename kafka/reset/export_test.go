package reset

// SetAfterVerify makes f run between the verifying re-read and the second
// one, to play another writer; the returned function restores the default.
func SetAfterVerify(f func()) (restore func()) {
	old := afterVerify
	afterVerify = f
	return func() { afterVerify = old }
}
