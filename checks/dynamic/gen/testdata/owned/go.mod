module example.com/owned

go 1.22
