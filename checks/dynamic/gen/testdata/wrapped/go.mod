module example.com/wrapped

go 1.24
