package lockset_test

import (
	"go/ast"
	"go/parser"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// TestDocGuards checks the lock documentation forms real code uses, and
// the ones that document nothing.
func TestDocGuards(t *testing.T) {
	src := `package p

import "sync"

type server struct {
	id  int
	mu  sync.Mutex // guards following
	lis map[string]bool
	conns int

	quit chan struct{}
}

type cc struct {
	// mu protects the following fields.
	mu    sync.RWMutex
	state int
	// The following fields are read-only after creation.
	target string
	lceMu  sync.Mutex // protects lastConnectionError
	lastConnectionError error
	other  int
}

type wrapper struct {
	opts int

	// The following fields are protected by mu.  Caller must take cc.mu
	// before taking mu.
	curState int
	closed   bool
	mu       sync.Mutex
	after    int
}

type negated struct {
	mu sync.Mutex // does not guard the fields below
	a  int
}

type svc struct {
	// mu guards hsConnMap and hsDialer.
	mu        sync.Mutex
	hsConnMap map[string]int
	hsDialer  func()
	unrelated int
}

type line struct {
	mu sync.Mutex
	a  int // guarded by mu
	b  int
}

type partial struct {
	options   int
	optionsMu sync.Mutex // Protects the options in a few limited cases where needed for testing
	// mu protects the fields below when needed.
	mu    sync.Mutex
	state int
}

type oauth struct {
	config      struct{ URL, ClientID string }
	baseURL     string
	// metadataMu protects baseURL, config.URL, and resourceURL. It MUST NOT
	// be held across I/O.
	metadataMu  sync.Mutex
	resourceURL string
}
`
	f, err := parser.ParseFile(fset, "docs.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := (&types.Config{Importer: imp}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	var got []string
	for v, g := range lockset.DocGuards(fset, []*ast.File{f}, info) {
		owner := fset.Position(v.Pos()).Line
		got = append(got, v.Name()+"<-"+g.Mutex.Name()+"/"+g.How+"@"+itoa(owner))
	}
	sort.Strings(got)
	want := []string{
		"a<-mu/annotation@51",
		"baseURL<-metadataMu/name@65", // config.URL guards a sub-field: config is not listed
		"closed<-mu/block@31",
		"conns<-mu/block@9",
		"curState<-mu/annotation@30", // the group comment is also its own annotation
		"hsConnMap<-mu/name@44",
		"hsDialer<-mu/name@45",
		"lastConnectionError<-lceMu/name@21",
		"lis<-mu/block@8",
		"resourceURL<-metadataMu/name@69",
		"state<-mu/block@17",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
