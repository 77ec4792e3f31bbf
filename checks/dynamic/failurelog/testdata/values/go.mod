module values

go 1.24
