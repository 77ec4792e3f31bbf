//go:build integ

package tags

// Tagged is reported only when the tag is set.
func Tagged() {
	mark()
}
