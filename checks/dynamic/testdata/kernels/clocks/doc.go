// Package clocks is a bug-kernel package; its code lives in its tests.
package clocks
