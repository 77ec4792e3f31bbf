package guardedby

import (
	"strings"
	"testing"
)

// IL1001's text states the inference thresholds from their constants, as
// it did when they were written out.
func TestUnguardedFieldTextStatesThreshold(t *testing.T) {
	if got := percent(0.75); got != "75%" {
		t.Errorf("percent(0.75) = %q, want 75%%", got)
	}
	if got := percent(0.5); got != "50%" {
		t.Errorf("percent(0.5) = %q, want 50%%", got)
	}
	if Rules[0].ID != RuleUnguardedField || !strings.Contains(Rules[0].Text, "(at least 2 and 75% of the accesses outside constructors") {
		t.Errorf("IL1001's text does not state the thresholds: %q", Rules[0].Text)
	}
}
