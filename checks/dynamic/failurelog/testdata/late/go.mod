module late

go 1.24
