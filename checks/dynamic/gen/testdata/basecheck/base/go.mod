module example.com/tally

go 1.24
