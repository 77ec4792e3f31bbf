package rt

import "runtime"

func goschedReal() { runtime.Gosched() }
