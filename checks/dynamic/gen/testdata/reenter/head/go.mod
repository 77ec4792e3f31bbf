module example.com/bus

go 1.24
