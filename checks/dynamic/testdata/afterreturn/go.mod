module afterreturn

go 1.25
