// Package realsuitedrv holds kernels of the false alarms the search's
// driver used to raise on real test suites (issue 14): one package per
// mechanism, each a test that passes under plain go test (but
// toolsibling's TestFailsEitherWay, which fails either way by design).
package realsuitedrv
