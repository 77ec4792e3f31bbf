module example.com/leakcheck

go 1.24
