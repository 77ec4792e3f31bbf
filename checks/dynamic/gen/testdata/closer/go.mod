module example.com/closer

go 1.22
