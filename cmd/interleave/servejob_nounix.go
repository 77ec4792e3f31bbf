//go:build !unix

package main

import "errors"

func hardenJob(fd int, nproc, fsize uint64) error {
	return errors.New("interleave serve's jobs run only on Unix")
}
