module watchdep

go 1.25
