package gen

import "github.com/interleave-dev/interleave/checks/claim"

// Directive marks a type as safe for concurrent use without prose.
const Directive = claim.Directive
