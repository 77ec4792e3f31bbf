module example.com/bin

go 1.24
