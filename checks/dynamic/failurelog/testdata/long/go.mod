module long

go 1.24
