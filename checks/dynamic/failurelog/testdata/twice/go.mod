module twice

go 1.24
