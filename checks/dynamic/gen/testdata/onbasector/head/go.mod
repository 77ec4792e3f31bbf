module example.com/valve

go 1.24
