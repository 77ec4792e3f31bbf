package gen

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestSameCauseSchedulesCarryTheTest: the schedules of the generated
// tests grouped under a finding (SameCause, the README's
// TestInterleaveGen_Bank_36 under Bank_19's IL3001) carry the generated
// file too, so that each replays in the user's tree; a schedule of the
// user's own test in the group is left as it is. Without carryTo's loop
// over SameCause only the finding's own schedule carried it.
func TestSameCauseSchedulesCarryTheTest(t *testing.T) {
	const pkg = "example.com/p"
	src := []byte("package p_test\n")
	dir := t.TempDir() // the schedules' directory (Options.SchedulesDir)
	target := &Target{}
	w := &pkgWork{pkg: &packages.Package{PkgPath: pkg}, kept: []*Case{{Target: target, Name: "TestInterleaveGen_T_1"}, {Target: target, Name: "TestInterleaveGen_T_2"}}, src: src}
	r := &run{res: &Result{}, modRoot: t.TempDir(), copyRoot: t.TempDir(), works: []*pkgWork{w}, byPkg: map[string]*pkgWork{pkg: w}}
	write := func(name, test string) string {
		path := filepath.Join(dir, name)
		if err := explore.WriteSchedule(path, &rt.Schedule{Version: rt.ScheduleVersion, Package: pkg, Test: test}); err != nil {
			t.Fatal(err)
		}
		return path
	}
	own := write("own.json", "TestInterleaveGen_T_1")
	same := write("same.json", "TestInterleaveGen_T_2")
	user := write("user.json", "TestUser")
	f := checks.Finding{Kind: checks.DataRace, Package: pkg, Test: "TestInterleaveGen_T_1", Schedule: own,
		SameCause: []checks.Occurrence{{Test: "TestInterleaveGen_T_2", Schedule: same}, {Test: "TestUser", Schedule: user}}}
	if err := r.pickFindings(&explore.Result{Findings: []checks.Finding{f}}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{own: 1, same: 1, user: 0} {
		s, err := explore.ReadSchedule(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Files) != want {
			t.Errorf("%s (%s): carries %d files, want %d", filepath.Base(path), s.Test, len(s.Files), want)
		}
		if len(s.Files) == 1 && want == 1 && (s.Files[0].Name != FileName || s.Files[0].Source != string(src) || s.Version < rt.ScheduleVersionFiles) {
			t.Errorf("%s: carries %s (version %d), want the generated file", filepath.Base(path), s.Files[0].Name, s.Version)
		}
	}
	if got := r.best[findingKey{target, checks.DataRace, placeKey(f)}].SameCause[0].Schedule; got != same {
		t.Errorf("the occurrence's schedule is %q, want %q", got, same)
	}
}
