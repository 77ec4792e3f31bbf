package ok

// OK compiles.
func OK() {}
