package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	ghreport "github.com/interleave-dev/interleave/report/github"
)

// Job states.
const (
	StatePending = "pending"
	StateRunning = "running"
	StateDone    = "done"
	StateFailed  = "failed"
)

// maxAttempts bounds how often a job interrupted by restarts is resumed.
const maxAttempts = 3

// Job is one run of interleave pr on a pinned head SHA, then its posting.
type Job struct {
	ID             string        `json:"id"`
	State          string        `json:"state"`
	Reason         string        `json:"reason,omitempty"` // why it failed, was superseded or re-queued
	Trigger        string        `json:"trigger"`          // what asked for it, for logs
	Delivery       string        `json:"delivery"`         // X-GitHub-Delivery
	InstallationID int64         `json:"installation_id"`
	Owner          string        `json:"owner"`
	Repo           string        `json:"repo"`
	PR             int           `json:"pr"`
	BaseSHA        string        `json:"base_sha"`
	HeadSHA        string        `json:"head_sha"` // pinned when the job was accepted
	Budget         time.Duration `json:"budget"`
	BudgetGiven    bool          `json:"budget_given,omitempty"` // by the trigger (budget=): over .interleave.yaml's
	Run            string        `json:"run,omitempty"`          // test filter from run=
	Seed           int64         `json:"seed"`                   // 0: interleave pr derives it from the head
	Attempts       int           `json:"attempts"`               // starts, including resumed ones
	Created        time.Time     `json:"created"`
	Started        time.Time     `json:"started,omitzero"`
	Finished       time.Time     `json:"finished,omitzero"`
	Analyzed       time.Time     `json:"analyzed,omitzero"` // interleave pr finished; outputs on disk
	PRExit         int           `json:"pr_exit"`           // interleave pr's exit code
	Posted         time.Time     `json:"posted,omitzero"`   // results posted: never again
}

// postKey is the idempotency key interleave post stores on the job's check
// run: the job id, plus its creation time so that a new database's
// j00000001 is not taken for an old one's.
func (j *Job) postKey() string {
	return fmt.Sprintf("interleave-app.%s.%d", j.ID, j.Created.UnixNano())
}

// Delivery states.
const (
	deliveryPending = "pending"
	deliveryDone    = "done"
)

// delivery is an accepted webhook delivery waiting for triage (permission
// check, reaction, head SHA) or triaged.
type delivery struct {
	Seq      string            `json:"seq"`
	ID       string            `json:"id"`
	State    string            `json:"state"`
	Trigger  *ghreport.Trigger `json:"trigger"`
	Received time.Time         `json:"received"`
	Outcome  string            `json:"outcome,omitempty"`
}

var (
	bucketJobs       = []byte("jobs")
	bucketDeliveries = []byte("deliveries")
	bucketSeen       = []byte("seen") // dedupe keys: delivery ids, comment id + action
)

// store is the persistent queue: jobs and deliveries in a bbolt file.
type store struct{ db *bolt.DB }

func openStore(path string) (*store, error) {
	// The queue is the server's private state (installation ids, triggers):
	// 0600 deliberately.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("open %s: database is locked by another process (is another interleave serve running?)", path)
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketJobs, bucketDeliveries, bucketSeen} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("init %s: %w", path, err)
	}
	return &store{db: db}, nil
}

func (s *store) Close() error { return s.db.Close() }

// resume puts jobs left running by a stopped server back to pending, or fails
// them once they have been started maxAttempts times. It returns how many it
// re-queued.
func (s *store) resume() (int, error) {
	n := 0
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketJobs)
		return b.ForEach(func(k, v []byte) error {
			var j Job
			if err := json.Unmarshal(v, &j); err != nil {
				return fmt.Errorf("job %s: %w", k, err)
			}
			if j.State != StateRunning {
				return nil
			}
			if j.Attempts >= maxAttempts {
				j.State, j.Reason, j.Finished = StateFailed, fmt.Sprintf("interrupted %d times by server restarts", j.Attempts), time.Now()
			} else {
				j.State = StatePending
				n++
			}
			return putJSON(b, k, &j)
		})
	})
	return n, err
}

// dedupeWindow is how long delivery ids and command keys are remembered;
// GitHub redelivers only recent deliveries.
const dedupeWindow = 30 * 24 * time.Hour

// prune forgets dedupe keys and triaged deliveries older than dedupeWindow.
func (s *store) prune(now time.Time) error {
	cutoff := now.Add(-dedupeWindow)
	return s.db.Update(func(tx *bolt.Tx) error {
		var stale [][]byte
		seen := tx.Bucket(bucketSeen)
		err := seen.ForEach(func(k, v []byte) error {
			if t, err := time.Parse(time.RFC3339, string(v)); err == nil && t.Before(cutoff) {
				stale = append(stale, k)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range stale {
			if err := seen.Delete(k); err != nil {
				return err
			}
		}
		stale = nil
		deliveries := tx.Bucket(bucketDeliveries)
		err = deliveries.ForEach(func(k, v []byte) error {
			var d delivery
			if json.Unmarshal(v, &d) == nil && d.State == deliveryDone && d.Received.Before(cutoff) {
				stale = append(stale, k)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range stale {
			if err := deliveries.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// addDelivery records an accepted delivery unless its delivery id or dedupe
// key was seen before; dup reports that.
func (s *store) addDelivery(id string, t *ghreport.Trigger, now time.Time) (dup bool, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		seen := tx.Bucket(bucketSeen)
		keys := [][]byte{[]byte("delivery:" + id)}
		if t.DedupeKey != "" {
			keys = append(keys, []byte(t.DedupeKey))
		}
		for _, k := range keys {
			if seen.Get(k) != nil {
				dup = true
				return nil
			}
		}
		stamp := []byte(now.UTC().Format(time.RFC3339))
		for _, k := range keys {
			if err := seen.Put(k, stamp); err != nil {
				return err
			}
		}
		b := tx.Bucket(bucketDeliveries)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		d := delivery{Seq: fmt.Sprintf("d%010d", seq), ID: id, State: deliveryPending, Trigger: t, Received: now}
		return putJSON(b, []byte(d.Seq), &d)
	})
	return dup, err
}

// nextDelivery returns the oldest pending delivery, or nil.
func (s *store) nextDelivery() (*delivery, error) {
	var found *delivery
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketDeliveries).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			var d delivery
			if err := json.Unmarshal(v, &d); err != nil {
				return fmt.Errorf("delivery %s: %w", k, err)
			}
			if d.State == deliveryPending {
				found = &d
				return nil
			}
		}
		return nil
	})
	return found, err
}

// finishDelivery marks a delivery triaged and, in the same transaction,
// queues the job it produced (job may be nil), so a crash never loses or
// doubles the job.
func (s *store) finishDelivery(d *delivery, outcome string, job *Job) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if job != nil {
			b := tx.Bucket(bucketJobs)
			seq, err := b.NextSequence()
			if err != nil {
				return err
			}
			job.ID = fmt.Sprintf("j%08d", seq)
			if err := putJSON(b, []byte(job.ID), job); err != nil {
				return err
			}
			if job.supersedes() {
				if err := supersede(b, job); err != nil {
					return err
				}
			}
		}
		d.State, d.Outcome = deliveryDone, outcome
		return putJSON(tx.Bucket(bucketDeliveries), []byte(d.Seq), d)
	})
}

// supersedes reports whether a job makes older pending pushes of its pull
// request pointless: a push does, an explicit request never is replaced.
func (j *Job) supersedes() bool { return strings.HasPrefix(j.Trigger, "pull_request ") }

// supersede closes the pending push jobs of newer's pull request.
func supersede(b *bolt.Bucket, newer *Job) error {
	var old []Job
	err := b.ForEach(func(k, v []byte) error {
		var j Job
		if err := json.Unmarshal(v, &j); err != nil {
			return fmt.Errorf("job %s: %w", k, err)
		}
		if j.ID != newer.ID && j.State == StatePending && j.supersedes() &&
			j.Owner == newer.Owner && j.Repo == newer.Repo && j.PR == newer.PR {
			old = append(old, j)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, j := range old {
		j.State, j.Reason, j.Finished = StateDone, "superseded by "+newer.ID+" on "+newer.HeadSHA, time.Now()
		if err := putJSON(b, []byte(j.ID), &j); err != nil {
			return err
		}
	}
	return nil
}

// claim moves the oldest pending job to running and returns it, or nil.
func (s *store) claim(now time.Time) (*Job, error) {
	var claimed *Job
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketJobs)
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			var j Job
			if err := json.Unmarshal(v, &j); err != nil {
				return fmt.Errorf("job %s: %w", k, err)
			}
			if j.State != StatePending {
				continue
			}
			j.State, j.Started = StateRunning, now
			j.Attempts++
			claimed = &j
			return putJSON(b, k, &j)
		}
		return nil
	})
	return claimed, err
}

// update applies f to the stored job and saves it.
func (s *store) update(id string, f func(*Job)) (*Job, error) {
	var j Job
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketJobs)
		v := b.Get([]byte(id))
		if v == nil {
			return fmt.Errorf("job %s not found", id)
		}
		if err := json.Unmarshal(v, &j); err != nil {
			return fmt.Errorf("job %s: %w", id, err)
		}
		f(&j)
		return putJSON(b, []byte(id), &j)
	})
	return &j, err
}

// Jobs returns every job, oldest first.
func (s *store) jobs() ([]Job, error) {
	var out []Job
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketJobs).ForEach(func(k, v []byte) error {
			var j Job
			if err := json.Unmarshal(v, &j); err != nil {
				return fmt.Errorf("job %s: %w", k, err)
			}
			out = append(out, j)
			return nil
		})
	})
	return out, err
}

// depth counts pending and running jobs and untriaged deliveries.
func (s *store) depth() (pending, running, deliveries int, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		err := tx.Bucket(bucketJobs).ForEach(func(k, v []byte) error {
			var j Job
			if err := json.Unmarshal(v, &j); err != nil {
				return err
			}
			switch j.State {
			case StatePending:
				pending++
			case StateRunning:
				running++
			}
			return nil
		})
		if err != nil {
			return err
		}
		return tx.Bucket(bucketDeliveries).ForEach(func(k, v []byte) error {
			var d delivery
			if err := json.Unmarshal(v, &d); err != nil {
				return err
			}
			if d.State == deliveryPending {
				deliveries++
			}
			return nil
		})
	})
	return
}

func putJSON(b *bolt.Bucket, k []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(k, data)
}
