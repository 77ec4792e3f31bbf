module example.com/rerunonce

go 1.24
