//go:build !nothing
// +build !nothing

package oldtick

// Recv receives from ch.
func Recv(ch chan int) int { return <-ch }
