module example.com/txpool

go 1.24
