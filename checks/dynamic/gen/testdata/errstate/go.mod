module example.com/generrstate

go 1.24
