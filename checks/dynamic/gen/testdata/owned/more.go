package owned

// Proxy and Relay hold a hookChain too, declared in another file than the
// chain (sorted before it): with Client, three owners of one type, more
// than gen tests; Client, next to the chain, is kept.

// Proxy forwards commands through its hooks.
type Proxy struct {
	*hookChain
}

// NewProxy returns a proxy with no hooks.
func NewProxy() *Proxy { return &Proxy{&hookChain{current: "proxy"}} }

// Forward runs cmd through the hooks.
func (p *Proxy) Forward(cmd string) string { return p.process(cmd) }

// Relay relays commands through its hooks.
type Relay struct {
	chain *hookChain
}

// NewRelay returns a relay with no hooks.
func NewRelay() *Relay { return &Relay{&hookChain{current: "relay"}} }

// Send runs cmd through the hooks.
func (r *Relay) Send(cmd string) string { return r.chain.process(cmd) }

// Hook adds a hook.
func (r *Relay) Hook(name string) { r.chain.AddHook(name) }
