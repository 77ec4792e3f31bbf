module example.com/gentoolsuspect

go 1.24
