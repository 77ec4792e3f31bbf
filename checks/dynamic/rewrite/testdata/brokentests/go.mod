module example.com/brokentests

go 1.25
