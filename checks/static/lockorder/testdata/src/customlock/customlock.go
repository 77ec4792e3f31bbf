package customlock // want package:`order customlock.accounts -> customlock.ledger, customlock.ledger -> customlock.accounts, customlock.accounts -> customlock.audit`

// Locks of a module's own lock type (the sharded
// lockx.RWMutex) taken in opposite orders deadlock as sync mutexes do.

import "lockx"

var (
	accounts lockx.RWMutex
	ledger   lockx.RWMutex
	audit    lockx.RWMutex
)

func Transfer() { // want Transfer:"acquires customlock.accounts, customlock.ledger"
	accounts.Lock()
	ledger.Lock() // want `lock order inversion: ledger \(customlock.ledger\) acquired while holding accounts \(customlock.accounts\), but customlock.Report acquires` `customlock.ledger acquired while holding customlock.accounts in Transfer, and customlock.accounts while holding customlock.ledger in Report`
	ledger.Unlock()
	accounts.Unlock()
}

func Report() { // want Report:"acquires customlock.accounts, customlock.ledger"
	ledger.Lock()
	accounts.Lock()
	accounts.Unlock()
	ledger.Unlock()
}

// Audit takes them in Transfer's order: no cycle of its own.
func Audit() { // want Audit:"acquires customlock.accounts, customlock.audit"
	accounts.Lock()
	audit.Lock()
	audit.Unlock()
	accounts.Unlock()
}
