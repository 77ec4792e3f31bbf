module clockdep

go 1.25
