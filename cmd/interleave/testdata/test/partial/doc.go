// Package partial is a module of which one package's tests do not compile
// (mocked: its test calls a generated mock the module lacks, as
// open-feature/go-sdk's zip does) and one package's tests do and fail on
// some schedules (bank: a check-then-act across two locked methods).
// interleave test ./... must search bank, report its failure and name
// mocked as not searched, as go test ./... tests bank and fails mocked
// alone.
package partial
