module example.com/tick

go 1.22
